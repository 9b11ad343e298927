import { DARK_THEME, LIGHT_THEME, type GraphTheme } from './graph/style.js';

/**
 * The graph's theme follows the system's setting, as the page's CSS does (styles/tokens.css):
 * read once, and again whenever the system switches.
 */
const query = window.matchMedia('(prefers-color-scheme: dark)');

export const currentTheme = (): GraphTheme => (query.matches ? DARK_THEME : LIGHT_THEME);

export function onThemeChange(listener: (theme: GraphTheme) => void): void {
  query.addEventListener('change', () => listener(currentTheme()));
}
