// Checks of what a screen draws that axe cannot make: a badge's outline against what is
// behind it, and separators ("·") that would start or end a line of a list that wraps.
import type { Locator } from '@playwright/test'

/** A badge's text against its own background, and its outline (border, else background) against what is around it. */
export interface BadgeContrast {
  text: number
  outline: number
}

/** Measures a badge as drawn: colours composed over every background behind it, as the eye sees them. */
export function badgeContrast(badge: Locator): Promise<BadgeContrast> {
  return badge.evaluate((element) => {
    type Rgba = [number, number, number, number]
    const parse = (colour: string): Rgba => {
      const parts = (colour.match(/[\d.]+/g) ?? []).map(Number)
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1]
    }
    const over = (top: Rgba, below: Rgba): Rgba => {
      const alpha = top[3]
      return [0, 1, 2].map((i) => top[i]! * alpha + below[i]! * (1 - alpha)).concat(1) as Rgba
    }
    // What is drawn behind an element: the backgrounds of its ancestors, composed from the page up.
    const behind = (from: Element | null): Rgba => {
      const layers: Rgba[] = []
      for (let node = from; node; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor))
      return layers.reverse().reduce<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1])
    }
    const luminance = ([r, g, b]: Rgba): number => {
      const channel = (value: number): number => {
        const c = value / 255
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
    const ratio = (a: Rgba, b: Rgba): number => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
      return (light + 0.05) / (dark + 0.05)
    }
    const style = getComputedStyle(element)
    const around = behind(element.parentElement)
    const fill = over(parse(style.backgroundColor), around)
    const border = parseFloat(style.borderTopWidth) > 0 && style.borderTopStyle !== 'none' ? over(parse(style.borderTopColor), around) : fill
    return { text: ratio(over(parse(style.color), fill), fill), outline: ratio(border, around) }
  })
}

/**
 * Separators of a list that wraps, drawn at the start or the end of a line (the items' "·"
 * as text, or as a ::before or ::after that is not clipped away), or hidden between two items
 * of a line. One line per problem. Every list the locator matches, in one trip to the page
 * (a list per row of a long screen, looked at one by one, took most of a minute).
 */
export function separatorsAtLineEnds(lists: Locator): Promise<string[]> {
  return lists.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const problems: string[] = []
      const box = element.getBoundingClientRect()
      const clips = getComputedStyle(element).overflowX !== 'visible'
      const items = [...element.children] as HTMLElement[]
      const rects = items.map((item) => item.getBoundingClientRect())
      // Items on the same line share a top (within a pixel or two: baselines differ a little).
      const lineOf = rects.map((rect) => Math.round(rect.top / 4))
      const drawn = (item: HTMLElement, pseudo: '::before' | '::after'): boolean => {
        const style = getComputedStyle(item, pseudo)
        return style.content !== 'none' && style.content !== 'normal' && style.display !== 'none'
      }
      items.forEach((item, index) => {
        const name = item.textContent?.trim().slice(0, 30) ?? ''
        if (/^[·•|]/.test(item.textContent?.trim() ?? '') || /[·•|]$/.test(item.textContent?.trim() ?? '')) problems.push(`"${name}" has a separator as text`)
        const first = index === 0 || lineOf[index - 1] !== lineOf[index]
        const last = index === items.length - 1 || lineOf[index + 1] !== lineOf[index]
        // A ::before left of the list's box is clipped when the list clips what overflows it.
        const beforeHidden = clips && rects[index]!.left - box.left < 1
        if (first && drawn(item, '::before') && !beforeHidden) problems.push(`"${name}" starts a line with a separator`)
        if (last && drawn(item, '::after')) problems.push(`"${name}" ends a line with a separator`)
        // Between two items of a line the separator shows: an item that clips what overflows it hides its own.
        if (!first && drawn(item, '::before') && getComputedStyle(item).overflowX !== 'visible') problems.push(`"${name}" hides the separator before it`)
      })
      for (const node of element.childNodes) {
        if (node.nodeType === Node.TEXT_NODE && /[·•|]/.test(node.textContent ?? '')) problems.push(`a separator as text between the items: "${node.textContent?.trim()}"`)
      }
      return problems
    }),
  )
}

/** How many lines a list's items take. */
export function linesOf(list: Locator): Promise<number> {
  return list.evaluate((element) => new Set([...element.children].map((item) => Math.round(item.getBoundingClientRect().top / 4))).size)
}
