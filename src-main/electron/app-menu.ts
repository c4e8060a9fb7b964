/** The application menu: the usual roles, and Help with the log file and the data folder. */
import { Menu, app, shell, type MenuItemConstructorOptions } from 'electron'

export interface MenuOptions {
  logFile: string
  dataDir: string
  /** Developer tools only while developing. */
  development: boolean
}

export function applicationMenu(options: MenuOptions): Menu {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(options.development ? [{ role: 'toggleDevTools' as const }] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Open the Log File', click: () => void shell.openPath(options.logFile) },
        { label: 'Show the Data Folder', click: () => void shell.openPath(options.dataDir) },
        ...(process.platform === 'darwin' ? [] : [{ type: 'separator' as const }, { label: 'About Tuneshelf', click: () => app.showAboutPanel() }]),
      ],
    },
  ]
  return Menu.buildFromTemplate(template)
}
