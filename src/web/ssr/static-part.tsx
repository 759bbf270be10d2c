import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FALLBACK_IMAGE } from '../lib/images.js';
import { useFollowLinks } from '../router/router.js';
import { isHydrating } from './render-instant.js';
import classes from './static-part.module.css';

/** A broken picture, shown as the fallback (its other sizes would be as broken). */
function showFallback(img: HTMLImageElement) {
  if (img.getAttribute('src') === FALLBACK_IMAGE) return;
  img.removeAttribute('srcset');
  img.src = FALLBACK_IMAGE;
}

/** A part made of nothing that changes (the footer): kept for good. */
const NONE: readonly unknown[] = [];

/** The same value: the same object, or one that reads the same (a live list's update may hold a copy). */
const same = (a: unknown, b: unknown) =>
  Object.is(a, b) ||
  (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * A part of a server-rendered page that a person reads but does not touch (a kitchen card's lines, a dish's
 * description): while the app hydrates the page, React leaves the server's HTML of it as it is, without rendering
 * or comparing it (issue 32: hydrate what a person can touch). From the first time one of `inputs` (what `children`
 * are made from, compared by value) differs from the hydration's, the part is rendered by React like any other, and
 * stays so. (A new language reloads the page.) Rendered in the browser from the start (a page the app shows after
 * the first), it is an ordinary part.
 *
 * Its element is `display: contents` (its children lay out as its parent's own); nothing inside may need React (no
 * handlers, no state). Its links to the app's pages are followed by the router from here, and a broken picture's
 * fallback is shown from here.
 */
export function StaticPart({
  inputs = NONE,
  children,
}: {
  inputs?: readonly unknown[];
  children: ReactNode;
}) {
  const [frozen, setFrozen] = useState(() => (isHydrating() ? inputs : null));
  const stillFrozen =
    frozen !== null && frozen.length === inputs.length && frozen.every((value, i) => same(value, inputs[i]));
  // Once changed, for good (a render-time update: React renders this again at once, before the commit).
  if (frozen !== null && !stillFrozen) setFrozen(null);
  const element = useRef<HTMLDivElement>(null);
  const followLinks = useFollowLinks();
  const follow = useRef(followLinks);
  follow.current = followLinks;
  useEffect(() => {
    const part = element.current;
    if (!stillFrozen || !part) return;
    // A hydration React gave up on (a mismatch elsewhere: it renders the page afresh) left nothing to keep.
    if (!part.firstChild) return setFrozen(null);
    // Pictures whose link is broken: those that failed before the app was here, and those that fail later.
    for (const img of part.querySelectorAll('img'))
      if (img.complete && !img.naturalWidth && img.getAttribute('src'))
        img.decode().catch(() => showFallback(img));
    const onError = (event: Event) => event.target instanceof HTMLImageElement && showFallback(event.target);
    // An image's error does not bubble: heard on its way down.
    part.addEventListener('error', onError, true);
    // Its links to the app's pages are followed by the router, as they would be rendered by React.
    const onClick = (event: MouseEvent) => follow.current(event);
    part.addEventListener('click', onClick);
    return () => {
      part.removeEventListener('error', onError, true);
      part.removeEventListener('click', onClick);
    };
  }, [stillFrozen]);
  return stillFrozen ? (
    // The server's children stay: React neither hydrates nor replaces what an element's own HTML holds.
    <div
      key="static"
      ref={element}
      className={classes.part}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: '' }}
    />
  ) : (
    <div key="live" className={classes.part}>
      {children}
    </div>
  );
}
