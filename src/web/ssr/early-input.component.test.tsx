// @vitest-environment happy-dom
import { act, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { listenForEarlyInput } from './early-input.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** What the app's state holds, as the app would use it (the search it makes, the language it picks). */
let search = '';
let language = '';

function Page() {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState('en');
  search = text;
  language = picked;
  return (
    <form>
      <input aria-label="Search" value={text} onChange={(event) => setText(event.currentTarget.value)} />
      <select aria-label="Language" value={picked} onChange={(event) => setPicked(event.currentTarget.value)}>
        <option value="en">English</option>
        <option value="fr">Français</option>
      </select>
    </form>
  );
}

/** Types as a visitor does: the browser sets the value, then fires `input`. */
function type(field: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, text);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function pick(select: HTMLSelectElement, value: string) {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

let cleanUp: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanUp.reverse()) step();
  cleanUp = [];
  search = '';
  language = '';
});

/**
 * A served page that the app takes over and hydrates, `meanwhile` running after React was handed the page and before
 * it has done any of the work (as a visitor types while a slow phone hydrates); then the replay, once hydrated.
 */
async function hydrate(before: (page: HTMLElement) => void, meanwhile: (page: HTMLElement) => void) {
  const page = document.createElement('div');
  page.innerHTML = renderToString(<Page />);
  document.body.append(page);
  const early = listenForEarlyInput();
  before(page);
  const replay = early.takeOver(page);
  let root: Root | undefined;
  await act(async () => {
    root = hydrateRoot(page, <Page />);
    meanwhile(page);
  });
  cleanUp.push(() => {
    act(() => root?.unmount());
    page.remove();
  });
  await act(replay);
  return page;
}

const searchField = (page: HTMLElement) => page.querySelector('input') as HTMLInputElement;
const languageList = (page: HTMLElement) => page.querySelector('select') as HTMLSelectElement;

describe('early input', () => {
  it('a search typed before the app takes the page over is made once hydrated', async () => {
    const page = await hydrate(
      (page) => type(searchField(page), 'biryani'),
      () => undefined,
    );
    expect(search).toBe('biryani');
    expect(searchField(page).value).toBe('biryani');
  });

  it('a search typed while the app hydrates (the field not hydrated yet) is made once hydrated', async () => {
    const page = await hydrate(
      () => undefined,
      (page) => type(searchField(page), 'biryani'),
    );
    expect(search).toBe('biryani');
    expect(searchField(page).value).toBe('biryani');
  });

  it('the latest text counts: typed before, typed on while hydrating, or typed away again', async () => {
    await hydrate(
      (page) => type(searchField(page), 'bir'),
      (page) => type(searchField(page), 'biryani'),
    );
    expect(search).toBe('biryani');
    cleanUp.splice(0).forEach((step) => step());

    const page = await hydrate(
      (page) => type(searchField(page), 'bir'),
      (page) => type(searchField(page), ''),
    );
    expect(search).toBe('');
    expect(searchField(page).value).toBe('');
  });

  it('a language picked while the app hydrates is picked once hydrated', async () => {
    const page = await hydrate(
      () => undefined,
      (page) => pick(languageList(page), 'fr'),
    );
    expect(language).toBe('fr');
    expect(languageList(page).value).toBe('fr');
  });
});
