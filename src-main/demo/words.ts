/**
 * Word lists for the demo catalogue. They are deliberately unkind: diacritics,
 * non-Latin scripts, emoji, HTML-like text and titles that make bad file names.
 */

export const FIRST_WORDS = [
  'Hungry', 'Silent', 'Velvet', 'Electric', 'Lonely', 'Golden', 'Neon', 'Midnight',
  'Crimson', 'Hollow', 'Paper', 'Wild', 'Lucky', 'Broken', 'Cosmic', 'Quiet',
  'Rusty', 'Sunday', 'Frozen', 'Blue', 'Little', 'Young', 'Urban', 'Lazy',
  'Analog', 'Digital', 'Northern', 'Southern', 'Static', 'Gentle',
] as const

export const SECOND_WORDS = [
  'Lucy', 'Wolves', 'Echo', 'Harbor', 'Pilots', 'Garden', 'Signal', 'Tides',
  'Foxes', 'Machine', 'Orchard', 'Parade', 'Radio', 'River', 'Saints', 'Sparrow',
  'Thunder', 'Valley', 'Waves', 'Lanterns', 'Satellites', 'Mornings', 'Ghosts',
  'Cassette', 'Circuit', 'Dreamers', 'Engines', 'Frequencies', 'Horizon', 'Islands',
] as const

/** Display names that are not Latin, carry diacritics, emoji or markup. */
export const UNKIND_NAMES = [
  'Björk Guðmundsdóttir Tribute', 'Beyoncé Fan Club', 'Mötley Crüe Covers', 'Sigur Rós Ambient',
  'Café Tacvba', 'Zoë Keating Inspired', 'Ñandú Records', 'Ólafur Arnalds Piano',
  '坂本龍一 トリビュート', 'Кино (группа)', 'БГ и друзья', 'فيروز', 'אהוד בנאי',
  '周杰倫 粉絲', '방탄소년단 Cover', 'Θεοδωράκης', 'Ψυχή Band', 'हिंदी गाने',
  '🎸 Riff Lords 🎸', 'DJ 🔥 Fuego', '<b>Bold</b> Statement', '<img src=x onerror=alert(1)>',
  'Rock & Roll "Legends"', "O'Brien's Pub Band", 'Ａｅｓｔｈｅｔｉｃ', '   Spaced   Out   ',
] as const

export const CITIES: ReadonlyArray<readonly [number, string]> = [
  [1, 'Berlin'], [2, 'São Paulo'], [3, 'Zürich'], [4, '東京'], [5, 'Москва'],
  [6, 'New York'], [7, 'Reykjavík'], [8, 'Montréal'], [9, 'القاهرة'], [10, 'Kraków'],
  [11, 'Lagos'], [12, 'Mumbai'], [13, 'Buenos Aires'], [14, 'Seoul'], [15, 'Melbourne'],
  [16, 'Portland, OR'], [17, 'Malmö'], [18, 'İstanbul'], [19, ''], [20, 'Ciudad de México'],
]

export const BIO_SENTENCES = [
  'We make music in a small room with big windows.',
  'Recording since 2009, mostly at night.',
  'Influenced by krautrock, dub and the sound of trains.',
  'Ambient textures for rainy afternoons.',
  'Weekly episodes about science, history and coffee.',
  'Independent label, no ads, no tracking.',
  'Noise pop from the suburbs.',
  'Café concerts, garage sessions and naïve synth-pop.',
  'Música hecha con cariño en la cocina.',
  'Musik für Menschen, die früh aufstehen.',
  'Мы играем пост-панк с 2012 года.',
  '東京を拠点に活動する電子音楽ユニット。',
  'موسيقى من القلب',
  'Live sets every Friday 🎧🔥',
  'Email us: booking@example.invalid',
  'Our favourite tag: <img src=x onerror=alert(1)>',
  '<script>alert("bio")</script> just kidding.',
  'Loves "quotes", \'apostrophes\' & ampersands.',
  'Tabs\tand    runs of spaces.',
  'Zero‍width joiners and ‮right-to-left‬ overrides.',
] as const

export const TITLE_WORDS = [
  'Night', 'Drive', 'Morning', 'Song', 'Dance', 'Rain', 'Echoes', 'Letters', 'Static',
  'Summer', 'Winter', 'Light', 'Shadows', 'Heart', 'Machine', 'Ocean', 'City', 'Fire',
  'Dreams', 'Tape', 'Ballad', 'Interlude', 'Reprise', 'Café', 'Señorita', 'Über',
] as const

/** Titles that make bad file names on at least one system. */
export const HOSTILE_TITLES = [
  'AC/DC Cover', 'Either/Or', '..', '.', '../../../etc/passwd', '..\\..\\Windows\\win.ini',
  'CON', 'aux.txt', 'PRN', 'nul', 'COM1', 'lpt9.mp3', 'Ends with dots...', 'Ends with space ',
  'What? Why: "Because" <Now> | *Star*', 'Tab\there', 'Line\nbreak', '   ', '',
  '日本語のタイトル', 'Пісня про море', '🎵🎶🎵', '<img src=x onerror=alert(1)>',
  'C:\\Windows\\System32', '/absolute/path', '~/home', 'trailing.dot.', '%2e%2e%2f',
] as const

export const PODCAST_WORDS = [
  'Episode', 'Interview', 'Bonus', 'Live', 'Q&A', 'Special', 'Chapter', 'Recap',
] as const

export const SUBTYPES_OTHER_THAN_TRACK = ['remix', 'sample', 'acapella', 'episode'] as const
