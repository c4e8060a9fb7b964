/** The bytes a file starts with, and those it ends with (often none): what each format's writer gives (index.ts picks one). */
export interface FileAudio {
  head: Buffer
  trail: Buffer
}
