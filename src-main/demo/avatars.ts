/** Avatars for the demo catalogue: symmetric 5x5 identicons as SVG, derived from the username. */
import { hashString } from './random'

/** An SVG identicon; the thumbnail is the same picture at a smaller size. */
export function avatarSvg(username: string, pixels: number): string {
  const hash = hashString(username.toLowerCase())
  const hue = hash % 360
  const cells: string[] = []
  for (let row = 0; row < 5; row++) {
    for (let column = 0; column < 3; column++) {
      if (((hash >>> (row * 3 + column + 9)) & 1) === 0) continue
      cells.push(`<rect x="${column}" y="${row}" width="1" height="1"/>`)
      if (column < 2) cells.push(`<rect x="${4 - column}" y="${row}" width="1" height="1"/>`)
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="-0.5 -0.5 6 6">` +
    `<rect x="-0.5" y="-0.5" width="6" height="6" fill="hsl(${hue} 30% 92%)"/>` +
    `<g fill="hsl(${hue} 55% 45%)">${cells.join('')}</g></svg>`
  )
}
