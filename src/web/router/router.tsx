// The app's router: the few things the screens use (links, redirects, the path's parameters, the query string, the
// page for a path, pages loaded on demand, an error page) over the browser's history. It replaced React Router
// (26 KiB of a first view's 144 KiB as sent; ADR 12), whose data loading, actions, fetchers and blocking no screen
// used. Paths match as React Router matched them: case-insensitively, `:name` one segment, `*` anything.
import {
  Component,
  createContext,
  startTransition,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type ComponentType,
  type ErrorInfo,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { flushSync } from 'react-dom';

export interface RouterLocation {
  pathname: string;
  search: string;
  hash: string;
}

/** Where to go: a path with its query and hash, or parts of one (the missing parts are the current location's path). */
export type To = string | Partial<RouterLocation>;

export interface NavigateOptions {
  replace?: boolean;
  /** The new page is drawn before the call returns (not as a transition). */
  flushSync?: boolean;
  /** Keeps the scroll position where a navigation to another path would open the new page at its top. */
  preventScrollReset?: boolean;
}

export type NavigateFunction = (to: To, options?: NavigateOptions) => Promise<void>;

export interface Route {
  /** `/`, `/KitchenMenu/:id`, `*`. */
  path: string;
  /** The page, or a page loaded on demand (`lazyRoute`). */
  Component: ComponentType | LazyPage;
  /** Shown while a page loaded on demand arrives when the app starts on it (a navigation keeps the page it leaves). */
  fallback?: ReactNode;
}

interface RouterValue {
  location: RouterLocation;
  navigate: NavigateFunction;
  routes: readonly Route[];
}

const RouterContext = createContext<RouterValue | null>(null);
const ParamsContext = createContext<Readonly<Record<string, string>>>({});
const ErrorContext = createContext<unknown>(undefined);

function useRouter(): RouterValue {
  const router = use(RouterContext);
  if (!router) throw new Error('A link or route hook outside the router');
  return router;
}

const current = (): RouterLocation => ({
  pathname: window.location.pathname,
  search: window.location.search,
  hash: window.location.hash,
});

/** `to` as a URL path, the parts it leaves out taken from `from`. */
export function resolveTo(to: To, from: RouterLocation): string {
  if (typeof to === 'string') return to;
  const pathname = to.pathname ?? from.pathname;
  const search = to.search === undefined ? (to.pathname === undefined ? from.search : '') : to.search;
  const withMark = (mark: string, part: string) => (part && !part.startsWith(mark) ? mark + part : part);
  return pathname + withMark('?', search) + withMark('#', to.hash ?? '');
}

const pathOf = (location: RouterLocation) => location.pathname + location.search + location.hash;

/**
 * The router of the browser over `routes`: the location is the window's, changed by `navigate` and by the back and
 * forward buttons. As with React Router, a page loaded on demand is loaded before the address changes to it (the
 * page shown stays until then, and of two navigations the later wins); a change is drawn as a transition, so that
 * React can yield while drawing it.
 */
export function BrowserRouter({ routes, children }: { routes: readonly Route[]; children: ReactNode }) {
  const [location, setLocation] = useState(current);
  const latest = useRef(0);
  // Where the page drawn next is scrolled to once drawn: the top of a new page, or where one was on a page one comes
  // back to (kept in its history entry as one left it). Null: left as it is (a change of the query, a hash).
  const scrollTo = useRef<number | null>(null);
  useLayoutEffect(() => {
    const y = scrollTo.current;
    scrollTo.current = null;
    if (y !== null) window.scrollTo(0, y);
  }, [location]);
  const show = useCallback((next: RouterLocation, sync = false) => {
    if (sync) flushSync(() => setLocation(next));
    else startTransition(() => setLocation(next));
  }, []);
  useEffect(() => {
    const onPop = () => {
      const id = ++latest.current;
      const kept = (window.history.state as { scrollY?: unknown } | null)?.scrollY;
      scrollTo.current = typeof kept === 'number' ? kept : null;
      const ready = pageReady(routes, window.location.pathname);
      if (!ready) show(current());
      else void ready.then(() => id === latest.current && show(current()));
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [routes, show]);
  const navigate = useCallback<NavigateFunction>(
    (to, options = {}) => {
      const url = new URL(resolveTo(to, current()), window.location.href);
      // A query replaced where one is (a page tidying its address) does not cancel the way to another page still
      // loading: the person's click wins (seen in CI: 'Orders' pressed as 'Get paid' cleared ?payouts=done).
      const here = options.replace && url.pathname.toLowerCase() === current().pathname.toLowerCase();
      const id = here ? latest.current : ++latest.current;
      if (url.origin !== window.location.origin) {
        window.location.assign(url.href);
        return Promise.resolve();
      }
      const go = () => {
        if (id !== latest.current) return;
        const path = url.pathname + url.search + url.hash;
        const from = current();
        // A new page opens at its top (the browser keeps the old page's position otherwise), unless asked not to or
        // going to a place within it (a hash).
        const newPage = url.pathname.toLowerCase() !== from.pathname.toLowerCase();
        scrollTo.current = newPage && !url.hash && !options.preventScrollReset ? 0 : null;
        // Following a link to where one already is replaces the entry (as React Router did): back still leaves.
        if (options.replace || path === pathOf(from))
          window.history.replaceState(window.history.state, '', path);
        else {
          // Where one was on the page one leaves, for coming back to it: the router restores it, not the browser,
          // which would scroll before the page is drawn again.
          window.history.scrollRestoration = 'manual';
          window.history.replaceState({ ...(window.history.state ?? {}), scrollY: window.scrollY }, '');
          window.history.pushState(null, '', path);
        }
        show(current(), options.flushSync);
      };
      const ready = pageReady(routes, url.pathname);
      if (!ready) {
        go();
        return Promise.resolve();
      }
      return ready.then(go);
    },
    [routes, show],
  );
  const value = useMemo(() => ({ location, navigate, routes }), [location, navigate, routes]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** The router of a page rendered on the server: one location, no way to move. */
export function StaticRouter({
  routes,
  url,
  children,
}: {
  routes: readonly Route[];
  url: string;
  children: ReactNode;
}) {
  const value = useMemo<RouterValue>(() => {
    const parsed = new URL(url, 'http://localhost');
    return {
      location: { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash },
      navigate: () => Promise.reject(new Error('No navigation while rendering on the server')),
      routes,
    };
  }, [url, routes]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** The parameters of `pattern` in `pathname`, or null when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  if (pattern === '*') return {};
  const wanted = pattern.split('/').filter(Boolean);
  const given = pathname.split('/').filter(Boolean);
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of wanted.entries()) {
    const value = given[i] ?? '';
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part.toLowerCase() !== value.toLowerCase()) return null;
  }
  return params;
}

/** A page whose code loads when it is first needed: `load` resolves to it, once `ready` (if given) has too. */
export class LazyPage {
  private loading: Promise<void> | undefined;
  /** The page once loaded. */
  page: ComponentType | undefined;
  /** Why it could not be loaded. */
  error: unknown;
  constructor(
    private readonly load: () => Promise<ComponentType>,
    private readonly ready?: () => Promise<unknown>,
  ) {}
  /** Loads the page once (again after a failure); never rejects: a failure is kept in `error`. */
  get(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const waiting = this.ready?.();
        const page = await this.load();
        await waiting;
        this.page = page;
        this.error = undefined;
      } catch (error) {
        this.error = error;
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}

export const lazyRoute = (load: () => Promise<ComponentType>, ready?: () => Promise<unknown>) =>
  new LazyPage(load, ready);

/** The first route matching `pathname`, with its parameters. */
function routeFor(routes: readonly Route[], pathname: string) {
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return undefined;
}

/** Resolves once the page for `pathname` can be drawn (at once when it is not loaded on demand, or loaded). */
function pageReady(routes: readonly Route[], pathname: string): Promise<void> | undefined {
  const page = routeFor(routes, pathname)?.route.Component;
  return page instanceof LazyPage && !page.page ? page.get() : undefined;
}

interface BoundaryProps {
  location: RouterLocation;
  errorPage: ReactNode;
  children: ReactNode;
}

/** The error page for a page that failed to draw or to load, until the location changes. */
class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown; at: RouterLocation | null }> {
  override state = { error: undefined as unknown, at: null as RouterLocation | null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(
    props: BoundaryProps,
    state: { error: unknown; at: RouterLocation | null },
  ) {
    if (state.at === null) return { at: props.location };
    if (state.at !== props.location) return { error: undefined, at: props.location };
    return null;
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <ErrorContext value={this.state.error}>{this.props.errorPage}</ErrorContext>;
  }
}

/** Throws what it is given, for the error boundary to show. */
function Failed({ error }: { error: unknown }): ReactNode {
  throw error;
}

/** A page loaded on demand: itself once loaded (a navigation waits for that), its fallback until then. */
function OnDemand({ page, fallback }: { page: LazyPage; fallback: ReactNode }) {
  const [, loaded] = useState(0);
  useEffect(() => {
    if (page.page) return;
    let mounted = true;
    void page.get().then(() => mounted && loaded((n) => n + 1));
    return () => {
      mounted = false;
    };
  }, [page]);
  if (page.page) return <page.page />;
  if (page.error !== undefined) return <Failed error={page.error} />;
  return fallback;
}

/**
 * The page of the first route matching the location (routes are tried in order, so `*` goes last), inside `layout`
 * (the part every page shares), and `errorPage` in place of both when drawing or loading fails. No Suspense
 * boundary: a server-rendered page hydrates in one pass, so what runs after hydration finds all of it hydrated.
 */
export function Routes({
  layout: Layout,
  errorPage,
}: {
  layout: ComponentType<{ children: ReactNode }>;
  errorPage: ReactNode;
}) {
  const { location, routes } = useRouter();
  const match = routeFor(routes, location.pathname);
  let page: ReactNode = null;
  if (match) {
    const { Component: Page, fallback } = match.route;
    page = (
      <ParamsContext value={match.params}>
        {Page instanceof LazyPage ? <OnDemand page={Page} fallback={fallback ?? null} /> : <Page />}
      </ParamsContext>
    );
  }
  return (
    <RouteErrorBoundary location={location} errorPage={errorPage}>
      <Layout>{page}</Layout>
    </RouteErrorBoundary>
  );
}

export const useNavigate = (): NavigateFunction => useRouter().navigate;
export const useLocation = (): RouterLocation => useRouter().location;
export const useParams = (): Readonly<Record<string, string>> => use(ParamsContext);
/** What the error page shows: the error that stopped the page. */
export const useRouteError = (): unknown => use(ErrorContext);

type SearchInit = URLSearchParams | Record<string, string> | string;

/** The query string of the location, and a way to change it (a navigation to the same path). */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => void,
] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  // A function is given the query this render shows (as React Router's was), not the address's latest: two calls
  // for one intent before the next render (a click on 'Show more kitchens' and the same button scrolling into view)
  // make one change, not two.
  const set = useCallback(
    (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(params)) : next;
      const query = new URLSearchParams(value).toString();
      void navigate({ search: query ? `?${query}` : '' }, options);
    },
    [navigate, params],
  );
  return [params, set];
}

/** Goes to `to` once drawn (a page that finds its visitor in the wrong place). */
export function Navigate({ to, replace }: { to: To; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace: replace ?? false });
    // Once, as React Router's did: a redirect is not redone when its props change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

/** A link the router follows without loading the page again (a click with a modifier key is the browser's). */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const { location, navigate } = useRouter();
  const href = resolveTo(to, location);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!isPlainClick(event, target)) return;
    event.preventDefault();
    void navigate(href, { replace: replace ?? false });
  };
  return <a {...rest} href={href} target={target} onClick={follow} />;
}

/** A click the router follows: the main button, no modifier key (those are the browser's), into this tab. */
const isPlainClick = (
  event: Pick<
    globalThis.MouseEvent,
    'defaultPrevented' | 'button' | 'metaKey' | 'altKey' | 'ctrlKey' | 'shiftKey'
  >,
  target: string | undefined,
) =>
  !event.defaultPrevented &&
  event.button === 0 &&
  (!target || target === '_self') &&
  !event.metaKey &&
  !event.altKey &&
  !event.ctrlKey &&
  !event.shiftKey;

/**
 * For HTML that React did not render (a static part kept from the server's page): a click on one of its links to
 * another page of the app is followed by the router, as a `Link` would be. Outside a router it does nothing.
 */
export function useFollowLinks(): (event: globalThis.MouseEvent) => void {
  const router = use(RouterContext);
  return (event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!router || !(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
    if (!isPlainClick(event, anchor.target) || anchor.origin !== window.location.origin) return;
    // A page the app has no route for (the server's own, as /Insurance) is the browser's to load.
    if (routeFor(router.routes, anchor.pathname)?.route.path === '*') return;
    // A link within the page (`#kitchens-heading`) is the browser's to scroll to.
    if (
      anchor.pathname === window.location.pathname &&
      anchor.search === window.location.search &&
      anchor.hash
    )
      return;
    event.preventDefault();
    void router.navigate(`${anchor.pathname}${anchor.search}${anchor.hash}`);
  };
}

/**
 * A link that says when it is the current page (`aria-current="page"`, class `active`): on its path or below it,
 * or on its path only with `end` (`/` only on itself).
 */
export function NavLink({ end, className, ...props }: LinkProps & { end?: boolean }) {
  const { location } = useRouter();
  const target = new URL(resolveTo(props.to, location), 'http://localhost').pathname.toLowerCase();
  const here = location.pathname.toLowerCase();
  const trimmed = target.length > 1 ? target.replace(/\/$/, '') : target;
  const active =
    here === trimmed || here === `${trimmed}/` || (!end && trimmed !== '/' && here.startsWith(`${trimmed}/`));
  return (
    <Link
      {...props}
      aria-current={active ? 'page' : undefined}
      className={[className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined}
    />
  );
}
