/**
 * What a visitor did to a server-rendered page before the app took it over: the page shows and takes taps and
 * typing from its first paint, the app arrives a moment later (src/web/boot.ts). A tapped link or a ticked box does
 * its own thing; a tapped button does nothing without the app, and typed text or a ticked box is not in the app's
 * state. Once hydrated, the app is told: the buttons are tapped again and the fields' changes arrive as changes.
 */

/** Held by boot.ts from its start; the app takes it over just before it hydrates (main.tsx). */
export interface EarlyInput {
  /**
   * The visitor followed a link (or sent a form) the browser is now loading: the app must not start. Its router's
   * first history write would cut that page load short, leaving the tap dead.
   */
  readonly leaving: boolean;
  /** A finger or mouse button is down (src/web/live/steady-while-pressed.ts goes on from there). */
  readonly pressing: boolean;
  /**
   * Stops listening (from here on the app hears taps itself), notes which fields of `root` the visitor changed
   * (before React, hydrating, adopts them: a render after that puts its own values back), and hands over the
   * replay, to be run once hydrated: one change or tap per frame, each after what the one before asked for has been
   * rendered (a handler sees the state the change before left, as when a visitor does it; the first sees what the
   * app's first effects left).
   */
  takeOver(root: HTMLElement): () => Promise<void>;
}

declare global {
  interface Window {
    earlyInput?: EarlyInput;
  }
}

/**
 * After the next frame has been drawn (in a hidden tab, which draws none, after a task): by then React has rendered
 * what the change before asked for.
 */
const afterNextFrame = () =>
  new Promise((resolve) => {
    if (document.visibilityState === 'hidden') setTimeout(resolve, 0);
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });

/** Listens for taps on buttons (only those with no action of their own: a submit button submits its form). */
export function listenForEarlyInput(): EarlyInput {
  const tapped: HTMLButtonElement[] = [];
  let leaving = false;
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest('a[href]');
    if (link instanceof HTMLAnchorElement) {
      const plain =
        event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
      if (plain && (!link.target || link.target === '_self') && !link.hasAttribute('download'))
        leaving = true;
      return;
    }
    const button = target?.closest('button');
    if (button?.type === 'button' && !button.disabled) tapped.push(button);
  };
  const onSubmit = () => (leaving = true);
  let pressing = false;
  const onPress = (event: PointerEvent) => {
    if (event.isPrimary) pressing = event.type === 'pointerdown';
  };
  const pressEvents = ['pointerdown', 'pointerup', 'pointercancel'] as const;
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  for (const type of pressEvents) document.addEventListener(type, onPress, true);
  return {
    get leaving() {
      return leaving;
    },
    get pressing() {
      return pressing;
    },
    takeOver(root) {
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('submit', onSubmit, true);
      for (const type of pressEvents) document.removeEventListener(type, onPress, true);
      const changes = fieldChanges(root);
      return async () => {
        for (const change of changes) {
          await afterNextFrame();
          change();
        }
        for (const button of tapped) {
          await afterNextFrame();
          if (button.isConnected && root.contains(button) && !button.disabled) button.click();
        }
      };
    },
  };
}

/** The kinds of input whose `value` a visitor types (a range or colour input has a value without one typed). */
const TYPED = new Set(['text', 'search', 'email', 'tel', 'url', 'number', 'password']);

/**
 * Fields whose value is not the one the server rendered (typed into, ticked, or restored by the browser), each as
 * a change to make again the way a visitor makes it, so that React's change handlers hear it: React keeps such a
 * value on screen when it hydrates, but its state still holds the server's. Read before hydrating; made after.
 */
function fieldChanges(root: HTMLElement): (() => void)[] {
  const changes: (() => void)[] = [];
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (field instanceof HTMLInputElement && field.type === 'checkbox') {
      if (field.checked !== field.defaultChecked)
        changes.push(() => {
          // Back to what React knows, then a real click: the browser ticks it and React hears the change.
          field.checked = field.defaultChecked;
          field.click();
        });
    } else if (field instanceof HTMLInputElement && field.type === 'radio') {
      // The one picked (not the one the server checked, which the pick unchecked): picked again.
      if (field.checked && !field.defaultChecked)
        changes.push(() => {
          field.checked = false;
          field.click();
        });
    } else if (
      (field instanceof HTMLTextAreaElement || TYPED.has(field.type)) &&
      field.value !== field.defaultValue
    ) {
      const typed = field.value;
      changes.push(() => {
        const focused = document.activeElement === field;
        const { selectionStart, selectionEnd } = field;
        // React watches the field's own `value` property (to tell a change from its own write): told the server's
        // value through it, then given the typed one past it, the input event is a change to React.
        field.value = field.defaultValue;
        const prototype =
          field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
        Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, typed);
        // Still typing there: the caret stays where it was.
        if (focused && selectionStart !== null && selectionEnd !== null)
          field.setSelectionRange(selectionStart, selectionEnd);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      });
    }
  }
  return changes;
}
