// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_IMAGE } from '../lib/images.js';
import { setRenderInstant, startHydration } from './render-instant.js';
import { StaticPart } from './static-part.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Counts the renders of what a static part holds. */
const rendered = vi.fn();

function Lines({ name }: { name: string }) {
  rendered(name);
  return (
    <>
      <h3>{name}</h3>
      <p>Delivers within 3 mi</p>
    </>
  );
}

let setName: (name: string) => void = () => undefined;
let setCount: (count: number) => void = () => undefined;

function Card({ initial }: { initial: string }) {
  const [name, set] = useState(initial);
  const [count, count_] = useState(0);
  setName = set;
  setCount = count_;
  return (
    <article>
      <StaticPart inputs={[name]}>
        <Lines name={name} />
      </StaticPart>
      <button type="button">Add ({count})</button>
    </article>
  );
}

let root: Root | undefined;
let container: HTMLElement;

/** The server's HTML of `Card`, in the document, hydrated as main.tsx does. */
async function hydrateServerHtml(initial: string) {
  container = document.createElement('div');
  container.innerHTML = renderToString(<Card initial={initial} />);
  document.body.append(container);
  const serverHeading = container.querySelector('h3');
  rendered.mockClear();
  startHydration(Date.now());
  await act(async () => {
    root = hydrateRoot(container, <Card initial={initial} />);
  });
  setRenderInstant(undefined);
  return serverHeading;
}

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container?.remove();
  setRenderInstant(undefined);
});

describe('StaticPart', () => {
  it("keeps the server's HTML as it is while hydrating: nothing in it is rendered, and it stays on screen", async () => {
    const serverHeading = await hydrateServerHtml('Asha’s Tiffin');
    expect(rendered).not.toHaveBeenCalled();
    // The very element the server sent, with its text.
    expect(container.querySelector('h3')).toBe(serverHeading);
    expect(container.textContent).toContain('Asha’s TiffinDelivers within 3 mi');
  });

  it('stays as it is through renders of the rest, and is rendered from the first change of its inputs on', async () => {
    await hydrateServerHtml('Asha’s Tiffin');
    await act(async () => setCount(1));
    expect(container.textContent).toContain('Add (1)');
    expect(container.textContent).toContain('Asha’s Tiffin');
    expect(rendered).not.toHaveBeenCalled();
    await act(async () => setName('Asha’s Kitchen'));
    expect(rendered).toHaveBeenCalledWith('Asha’s Kitchen');
    expect(container.querySelectorAll('h3')).toHaveLength(1);
    expect(container.querySelector('h3')?.textContent).toBe('Asha’s Kitchen');
    // For good: back to its first inputs, it is rendered all the same.
    await act(async () => setName('Asha’s Tiffin'));
    expect(container.querySelector('h3')?.textContent).toBe('Asha’s Tiffin');
  });

  it('is an ordinary part when the browser renders the page itself', async () => {
    container = document.createElement('div');
    document.body.append(container);
    await act(async () => {
      root = createRoot(container);
      root.render(<Card initial="Seoul Kitchen" />);
    });
    expect(rendered).toHaveBeenCalledWith('Seoul Kitchen');
    expect(container.querySelector('h3')?.textContent).toBe('Seoul Kitchen');
  });

  it('shows the fallback for a picture in it whose link is broken', async () => {
    container = document.createElement('div');
    container.innerHTML = renderToString(
      <StaticPart inputs={[]}>
        <img src="/images/gone.webp" srcSet="/images/gone-320.webp 320w" alt="Gone" />
      </StaticPart>,
    );
    document.body.append(container);
    startHydration(Date.now());
    await act(async () => {
      root = hydrateRoot(
        container,
        <StaticPart inputs={[]}>
          <img src="/images/gone.webp" srcSet="/images/gone-320.webp 320w" alt="Gone" />
        </StaticPart>,
      );
    });
    const img = container.querySelector('img');
    img?.dispatchEvent(new Event('error'));
    expect(img?.getAttribute('src')).toBe(FALLBACK_IMAGE);
    expect(img?.hasAttribute('srcset')).toBe(false);
  });
});
