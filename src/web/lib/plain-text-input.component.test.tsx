// @vitest-environment happy-dom
import { CloseButton, TextInput } from '@mantine/core';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { comparableHtml, serverRenderedThenHydrated } from './mantine-html.js';
import { PlainTextInput } from './plain-text-input.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const html = comparableHtml;
const onChange = () => undefined;

describe("a plain text field's HTML is Mantine's TextInput's", () => {
  it('with a label (the search, empty)', () => {
    const props = { label: 'Search kitchens and dishes', placeholder: 'Biryani', maxLength: 100 } as const;
    expect(html(<PlainTextInput {...props} type="search" value="" onChange={onChange} />)).toBe(
      html(<TextInput {...props} type="search" value="" onChange={onChange} rightSection={null} />),
    );
  });

  it('with a section on its right (the search, with words)', () => {
    const clear = <CloseButton aria-label="Clear the search words" />;
    expect(html(<PlainTextInput label="Search" value="dal" onChange={onChange} rightSection={clear} />)).toBe(
      html(<TextInput label="Search" value="dal" onChange={onChange} rightSection={clear} />),
    );
  });

  it('with a description (the address stand-in)', () => {
    const props = {
      label: 'Or pick an address',
      description: 'Kitchens nearest to it come first',
      placeholder: '12 Market Street',
      autoComplete: 'street-address',
      role: 'combobox',
      'aria-haspopup': 'listbox',
      'aria-expanded': false,
    } as const;
    const ours = html(<PlainTextInput {...props} value="" onChange={onChange} />);
    expect(ours).toBe(html(<TextInput {...props} value="" onChange={onChange} />));
    expect(ours).toContain('aria-describedby="id0-description"');
  });
});

describe('a hydrated plain text field', () => {
  let done: (() => void) | undefined;
  afterEach(() => done?.());

  it('is rendered once as it hydrates, keeps the server id, and takes typing', async () => {
    const rendered = vi.fn();
    function Field() {
      const [text, setText] = useState('');
      rendered(text);
      return (
        <PlainTextInput
          label="Search"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
      );
    }
    let serverId: string | undefined;
    const { page, unmount } = await serverRenderedThenHydrated(<Field />, (served) => {
      serverId = served.querySelector('input')?.id;
      rendered.mockClear();
    });
    done = unmount;
    expect(rendered).toHaveBeenCalledTimes(1);
    const input = page.querySelector('input');
    expect(input?.id).toBe(serverId);
    expect(page.querySelector('label')?.getAttribute('for')).toBe(serverId);
    expect(page.querySelector('label')?.textContent).toBe('Search');
    page.remove();
  });
});
