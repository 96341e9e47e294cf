/**
 * Building the page from the report: elements are made with their text as text nodes, never from
 * HTML strings, so that nothing a token names (its name, a revert reason) can become markup.
 */

export type Child = Node | string | number | false | null | undefined | readonly Child[]
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue
    if (Array.isArray(child)) append(parent, child)
    else parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : (child as Node))
  }
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value)
    else element.setAttribute(name, value === true ? '' : String(value))
  }
}

/**
 * An HTML element with attributes (`on…` functions become listeners) and children.
 *
 * @example
 * h('p', { class: 'note' }, 'Selling fails on ', h('strong', {}, 'Uniswap V2'))
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  setAttributes(element, attributes)
  append(element, children)
  return element
}

const SVG_NS = 'http://www.w3.org/2000/svg'

/** An SVG element (charts), like `h`. */
export function s(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag) as SVGElement
  setAttributes(element, attributes)
  append(element, children)
  return element
}

/** Replaces what `parent` holds with `children`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.textContent = ''
  append(parent, children)
}
