/**
 * The app's version, kept here as a constant so the core never has to read
 * package.json at run time (electron-vite bundles the main process, and the
 * packaged app has no package.json beside the code). A unit test keeps it equal
 * to package.json's version.
 */
export const APP_VERSION = '0.1.0'
