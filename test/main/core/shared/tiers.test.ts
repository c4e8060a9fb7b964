import { describe, expect, it } from 'vitest'
import type { AccessLevel } from '../../../../src-main/core/shared/catalogue'
import { cheapestFit, tierFits } from '../../../../src-main/core/shared/tiers'

const level = (id: number, name: string, maxsize: number, storage: number, price: number): AccessLevel => ({
  id,
  name,
  maxsize,
  price,
  bandwidth: 100,
  storage,
})

const FREE = level(1, 'Free', 10, 1, 0)
const BASIC = level(2, 'Basic', 100, 5, 5)
const PRO = level(3, 'Pro', 1000, 50, 20)

describe('tierFits', () => {
  it('reads maxsize as decimal MB and storage as decimal GB, both limits inclusive', () => {
    const [free] = tierFits([FREE], [10_000_000])
    expect(free).toEqual({
      level: FREE,
      largestBytes: 10_000_000,
      maxFileBytes: 10_000_000,
      fitsFileSize: true,
      totalBytes: 10_000_000,
      storageBytes: 1_000_000_000,
      fitsStorage: true,
      fits: true,
    })
    // One byte over 10 MB (10^7, not 10 MiB) does not fit.
    expect(tierFits([FREE], [10_000_001])[0]).toMatchObject({ fitsFileSize: false, fitsStorage: true, fits: false })
    expect(tierFits([FREE], [10 * 1024 * 1024])[0]!.fitsFileSize).toBe(false)
  })

  it('checks the largest upload against maxsize and the total against storage, each on its own', () => {
    // 150 uploads of 9 MB: each fits Free's 10 MB, all of them (1.35 GB) do not fit its 1 GB.
    const many = Array.from({ length: 150 }, () => 9_000_000)
    const [free, basic] = tierFits([FREE, BASIC], many)
    expect(free).toMatchObject({ largestBytes: 9_000_000, totalBytes: 1_350_000_000, fitsFileSize: true, fitsStorage: false, fits: false })
    expect(basic).toMatchObject({ fitsFileSize: true, fitsStorage: true, fits: true })
    // One upload of 200 MB: small in total, too large a file for Basic.
    const [, basicBig, proBig] = tierFits([FREE, BASIC, PRO], [200_000_000, 1_000])
    expect(basicBig).toMatchObject({ largestBytes: 200_000_000, totalBytes: 200_001_000, fitsFileSize: false, fitsStorage: true, fits: false })
    expect(proBig!.fits).toBe(true)
  })

  it('counts uploads of unknown size as 0, and an artist without uploads fits every level', () => {
    expect(tierFits([FREE], [null, 4_000_000, null])[0]).toMatchObject({ largestBytes: 4_000_000, totalBytes: 4_000_000, fits: true })
    expect(tierFits([FREE], [null])[0]).toMatchObject({ largestBytes: 0, totalBytes: 0, fits: true })
    expect(tierFits([FREE, PRO], []).map((fit) => fit.fits)).toEqual([true, true])
  })

  it('answers every level in their order, and nothing without levels', () => {
    expect(tierFits([PRO, FREE, BASIC], [50_000_000]).map((fit) => [fit.level.name, fit.fits])).toEqual([
      ['Pro', true],
      ['Free', false],
      ['Basic', true],
    ])
    expect(tierFits([], [1, 2, 3])).toEqual([])
  })
})

describe('cheapestFit', () => {
  it('is the cheapest level that fits, whatever the order of the levels', () => {
    expect(cheapestFit(tierFits([PRO, BASIC, FREE], [50_000_000]))?.level.name).toBe('Basic')
    expect(cheapestFit(tierFits([PRO, BASIC, FREE], [1_000]))?.level.name).toBe('Free')
  })

  it('breaks a tie in price by the lower id', () => {
    const twin = level(9, 'Twin', 1000, 50, 5)
    const also = level(4, 'Also', 1000, 50, 5)
    expect(cheapestFit(tierFits([twin, also], [1]))?.level.id).toBe(4)
  })

  it('is undefined when no level fits', () => {
    expect(cheapestFit(tierFits([FREE, BASIC], [2_000_000_000]))).toBeUndefined()
    expect(cheapestFit([])).toBeUndefined()
  })

  it('does not reorder what it is given', () => {
    const fits = tierFits([PRO, FREE], [1])
    cheapestFit(fits)
    expect(fits.map((fit) => fit.level.name)).toEqual(['Pro', 'Free'])
  })
})
