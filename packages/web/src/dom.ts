/** A small element builder: the explorer is plain DOM (docs/decisions.md). */
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (name === 'className') element.className = String(value);
    // Through the CSSOM: the Content-Security-Policy (style-src 'self') refuses style attributes.
    else if (name === 'style') element.style.cssText = String(value);
    else if (name === 'value' || name === 'checked' || name === 'disabled') {
      (element as unknown as Record<string, unknown>)[name] = value;
    } else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}
