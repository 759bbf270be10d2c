import { MantineContext, MantineThemeProvider } from '@mantine/core';
import { act, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MANTINE } from '../app-root.js';
import { theme } from '../theme.js';

/**
 * For the tests of components that are Mantine's HTML rather than its components (ADR 16): Mantine's context as the
 * app gives it.
 */
export const withMantine = (children: ReactNode) => (
  <MantineContext value={MANTINE}>
    <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>
  </MantineContext>
);

/**
 * The server's HTML of `element` as a tree whose elements list their attributes in one order, and whose generated
 * ids (React's `_R_…_`, Mantine's `mantine-_R_…_`) are numbered as they first appear: two renders compare equal when
 * the browser would build the same page from them. Needs a DOM (happy-dom).
 */
export function comparableHtml(element: ReactNode): string {
  const box = document.createElement('div');
  box.innerHTML = renderToString(withMantine(element));
  const ids = new Map<string, string>();
  const write = (node: Node): string => {
    if (!(node instanceof Element)) return node.textContent ?? '';
    const attributes = [...node.attributes]
      .map(({ name, value }) => {
        const generated = /^(id|for|aria-describedby|aria-labelledby)$/.test(name)
          ? value.replace(/(mantine-)?_R_\w+_/g, (id) => {
              if (!ids.has(id)) ids.set(id, `id${ids.size}`);
              return ids.get(id) ?? id;
            })
          : value;
        return `${name}="${generated}"`;
      })
      .sort();
    const children = [...node.childNodes].map(write).join('');
    return `<${node.localName} ${attributes.join(' ')}>${children}</${node.localName}>`;
  };
  return write(box);
}

/**
 * `element` rendered on the server into a page of its own, then hydrated there as the app hydrates a served page;
 * `between` runs in between (to note what the server's HTML holds). Needs a DOM (happy-dom) and an act environment.
 */
export async function serverRenderedThenHydrated(element: ReactNode, between: (page: HTMLElement) => void) {
  const page = document.createElement('div');
  page.innerHTML = renderToString(withMantine(element));
  document.body.append(page);
  between(page);
  let root: Root | undefined;
  await act(async () => {
    root = hydrateRoot(page, withMantine(element));
  });
  return { page, unmount: () => act(() => root?.unmount()) };
}
