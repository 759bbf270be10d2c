/**
 * What a visitor did to a server-rendered page before the app took it over: the page shows and takes taps and
 * typing from its first paint, the app arrives a moment later (src/web/boot.ts). A tapped link or a ticked box does
 * its own thing; a tapped button does nothing without the app, and typed text or a ticked box is not in the app's
 * state. Once hydrated, the app is told: the buttons are tapped again and the fields' changes arrive as changes.
 *
 * While React hydrates (from `takeOver` until the replay), taps are held too and made again once it has: React's own
 * handling of a tap on a tree it has not finished is not to be relied on (seen under load: a press that did not
 * hydrate the page and a click that did, but whose '+' reached no cart; a press whose target was replaced, so the
 * browser clicked nothing). So is typing: a field React has not hydrated yet keeps the typed text on screen as it
 * hydrates, but React takes that text as the one it knows and never hears it as a change (a search typed then was
 * lost under load in CI: the text in the field, no search made). A field's change meanwhile is made again too.
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
  /** React is hydrating: taps on the page are held, to be made again once it has. */
  readonly holding: boolean;
  /**
   * Notes which fields of `root` the visitor changed (before React, hydrating, adopts them: a render after that puts
   * its own values back), holds taps on `root` while React hydrates, and hands over the replay, to be run once
   * hydrated: it stops listening (from there on the app hears taps itself), then makes each change and tap again,
   * one per frame, each after what the one before asked for has been rendered (a handler sees the state the change
   * before left, as when a visitor does it; the first sees what the app's first effects left).
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

/** What a tap is aimed at: made again on it, it does what the tap would have. */
const TAPPABLE = 'a[href], button, input, select, textarea, label, summary, [role="button"], [tabindex]';

/** A click that opens a link where it is (not in a new tab or window, not as a download). */
function followsLinkHere(event: MouseEvent, link: HTMLAnchorElement): boolean {
  const plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
  return plain && (!link.target || link.target === '_self') && !link.hasAttribute('download');
}

/** The press and release events of a tap: React, hydrating, does not hear them (it would act on a half-made tree). */
const PRESS_EVENTS = [
  'pointerdown',
  'pointerup',
  'pointercancel',
  'mousedown',
  'mouseup',
  'touchstart',
  'touchend',
];

/** The events of a field's change, typed or picked (a tick comes with its click, which is held). */
const FIELD_EVENTS = ['input', 'change'];

/** Listens for taps on buttons (only those with no action of their own: a submit button submits its form). */
export function listenForEarlyInput(): EarlyInput {
  /** Taps to make again once hydrated, in order (each on what is still part of the page the app took over). */
  const taps: ((root: HTMLElement) => void)[] = [];
  let leaving = false;
  let pressing = false;
  /** Set by takeOver: from then until hydrated, taps on it are held. */
  let hydrating: HTMLElement | null = null;
  /** What the current press began on, while hydrating. */
  let pressedOn: Element | null = null;
  /** Held on its release because its press target was replaced (no click follows in Chromium; one may elsewhere). */
  let heldOnRelease: Element | null = null;
  /** The fields' changes to make again once hydrated (from `takeOver` on, the latest of each field's). */
  let changes = new Map<Element, () => void>();

  const elementOf = (event: Event) => (event.target instanceof Element ? event.target : null);
  const tapAgain = (element: Element) =>
    taps.push((root) => {
      const disabled = 'disabled' in element && element.disabled === true;
      if (element instanceof HTMLElement && element.isConnected && root.contains(element) && !disabled)
        element.click();
    });

  const onClick = (event: MouseEvent) => {
    const target = elementOf(event);
    const link = target?.closest('a[href]');
    if (hydrating) {
      if (!target || !hydrating.contains(target)) return;
      // A link opened in a new tab or window: the browser's to do, and the app ignores it.
      if (link instanceof HTMLAnchorElement && !followsLinkHere(event, link)) return;
      const tapped = target.closest(TAPPABLE) ?? target;
      // Not done now (no link followed, no form sent, no box ticked), nor heard by React: made again once hydrated.
      event.preventDefault();
      event.stopPropagation();
      if (tapped !== heldOnRelease) tapAgain(tapped);
      heldOnRelease = null;
      return;
    }
    if (link instanceof HTMLAnchorElement) {
      if (followsLinkHere(event, link)) leaving = true;
      return;
    }
    const button = target?.closest('button');
    if (button?.type === 'button' && !button.disabled) tapAgain(button);
  };
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target;
    if (hydrating && form instanceof HTMLFormElement && hydrating.contains(form)) {
      event.preventDefault();
      event.stopPropagation();
      const submitter = event.submitter;
      taps.push((root) => {
        if (root.contains(form)) form.requestSubmit(submitter?.isConnected ? submitter : null);
      });
      return;
    }
    leaving = true;
  };
  const onPress = (event: Event) => {
    if (event instanceof PointerEvent && event.isPrimary) pressing = event.type === 'pointerdown';
    const target = elementOf(event);
    if (!hydrating || !target || !hydrating.contains(target)) return;
    event.stopPropagation();
    if (event.type === 'pointerdown') {
      pressedOn = target;
      heldOnRelease = null;
    } else if (event.type === 'pointerup') {
      // The press's target was replaced meanwhile: the browser clicks nothing, so the tap is held here.
      if (pressedOn && !pressedOn.isConnected) {
        heldOnRelease = target.closest(TAPPABLE) ?? target;
        tapAgain(heldOnRelease);
      }
      pressedOn = null;
    }
  };
  /** A field changed while React hydrates: not heard by React now, its change is made again once hydrated. */
  const onChange = (event: Event) => {
    const field = event.target;
    if (!hydrating || !(field instanceof Element) || !hydrating.contains(field)) return;
    event.stopPropagation();
    const change = changeOf(field);
    if (change) changes.set(field, change);
    else changes.delete(field);
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  for (const type of FIELD_EVENTS) document.addEventListener(type, onChange, true);
  for (const type of PRESS_EVENTS) document.addEventListener(type, onPress, true);
  return {
    get leaving() {
      return leaving;
    },
    get pressing() {
      return pressing;
    },
    get holding() {
      return hydrating !== null;
    },
    takeOver(root) {
      changes = fieldChanges(root);
      hydrating = root;
      return async () => {
        hydrating = null;
        document.removeEventListener('click', onClick, true);
        document.removeEventListener('submit', onSubmit, true);
        for (const type of FIELD_EVENTS) document.removeEventListener(type, onChange, true);
        for (const type of PRESS_EVENTS) document.removeEventListener(type, onPress, true);
        for (const change of changes.values()) {
          await afterNextFrame();
          change();
        }
        for (const tap of taps) {
          await afterNextFrame();
          tap(root);
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
function fieldChanges(root: HTMLElement): Map<Element, () => void> {
  const changes = new Map<Element, () => void>();
  for (const field of root.querySelectorAll('input, textarea, select')) {
    const change = changeOf(field);
    if (change) changes.set(field, change);
  }
  return changes;
}

/** The field's value as a change to make again (read now, made later), if it is not the one the server rendered. */
function changeOf(field: Element): (() => void) | undefined {
  if (field instanceof HTMLInputElement && field.type === 'checkbox') {
    if (field.checked === field.defaultChecked) return undefined;
    return () => {
      // Back to what React knows, then a real click: the browser ticks it and React hears the change.
      field.checked = field.defaultChecked;
      field.click();
    };
  }
  if (field instanceof HTMLInputElement && field.type === 'radio') {
    // The one picked (not the one the server checked, which the pick unchecked): picked again.
    if (!field.checked || field.defaultChecked) return undefined;
    return () => {
      field.checked = false;
      field.click();
    };
  }
  if (field instanceof HTMLTextAreaElement || (field instanceof HTMLInputElement && TYPED.has(field.type))) {
    if (field.value === field.defaultValue) return undefined;
    const typed = field.value;
    return () => {
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
    };
  }
  if (field instanceof HTMLSelectElement) {
    // A pick in a list (the language): React hears a select's change event as a change.
    const rendered = [...field.options].find((option) => option.defaultSelected) ?? field.options[0];
    const picked = field.value;
    if (!rendered || picked === rendered.value) return undefined;
    return () => {
      field.value = picked;
      field.dispatchEvent(new Event('change', { bubbles: true }));
    };
  }
  return undefined;
}
