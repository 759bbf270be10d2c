// @vitest-environment happy-dom
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserRouter,
  lazyRoute,
  Link,
  matchPath,
  Navigate,
  NavLink,
  resolveTo,
  Routes,
  StaticRouter,
  useFollowLinks,
  useNavigate,
  useParams,
  useRouteError,
  useSearchParams,
  type Route,
} from './router.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Kitchen() {
  return <p>kitchen {useParams().id}</p>;
}
function Home() {
  const [params, setParams] = useSearchParams();
  return (
    <div>
      <p>home q={params.get('q') ?? ''}</p>
      <button
        onClick={() => setParams((current) => ({ q: `${current.get('q') ?? ''}x` }), { replace: true })}
      >
        more
      </button>
      <NavLink to="/" className="brand">
        brand
      </NavLink>
      <NavLink to="/Kitchen" end>
        kitchens
      </NavLink>
      <Link to="/KitchenMenu/a%20b">to a b</Link>
    </div>
  );
}
function Broken(): ReactNode {
  throw new Error('Boom');
}
function ErrorPage() {
  const error = useRouteError();
  return <p>error: {error instanceof Error ? error.message : 'none'}</p>;
}
function GoHome() {
  return <Navigate to="/" replace />;
}
function Layout({ children }: { children: ReactNode }) {
  return <main>{children}</main>;
}

let release: () => void = () => {};
const Later = lazyRoute(
  () =>
    new Promise((resolve) => {
      release = () => resolve(() => <p>later page</p>);
    }),
);

const routes: Route[] = [
  { path: '/', Component: Home },
  { path: '/KitchenMenu/:id', Component: Kitchen },
  { path: '/Broken', Component: Broken },
  { path: '/Away', Component: GoHome },
  { path: '/Later', Component: Later, fallback: <p>loading later</p> },
  { path: '*', Component: () => <p>not found</p> },
];

function App({ own = routes }: { own?: readonly Route[] }) {
  return (
    <BrowserRouter routes={own}>
      <Routes layout={Layout} errorPage={<ErrorPage />} />
      <Go />
    </BrowserRouter>
  );
}
let go: ReturnType<typeof useNavigate> = () => Promise.resolve();
function Go() {
  go = useNavigate();
  return null;
}

describe('matching and resolving', () => {
  it('matches case-insensitively, decodes parameters, refuses malformed ones', () => {
    expect(matchPath('/KitchenMenu/:id', '/kitchenmenu/a%20b')).toEqual({ id: 'a b' });
    expect(matchPath('/KitchenMenu/:id', '/KitchenMenu/%E0%A4')).toBeNull();
    expect(matchPath('/KitchenMenu/:id', '/KitchenMenu')).toBeNull();
    expect(matchPath('/KitchenMenu/:id', '/KitchenMenu/a/b')).toBeNull();
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/Chatroom', '/Chatroom/')).toEqual({});
    expect(matchPath('*', '/anything/at/all')).toEqual({});
  });
  it('resolves a partial location against the current one', () => {
    const from = { pathname: '/a', search: '?q=1', hash: '#h' };
    expect(resolveTo({ search: '?q=2' }, from)).toBe('/a?q=2');
    expect(resolveTo({ search: 'q=2' }, from)).toBe('/a?q=2');
    expect(resolveTo({ search: '' }, from)).toBe('/a');
    expect(resolveTo({ pathname: '/b' }, from)).toBe('/b');
    expect(resolveTo({}, from)).toBe('/a?q=1');
    expect(resolveTo('/c?x', from)).toBe('/c?x');
  });
});

describe('the router in the browser', () => {
  let root: Root;
  let container: HTMLElement;
  const text = () => container.textContent;

  beforeEach(() => {
    window.history.replaceState(null, '', '/');
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  it('follows a link without reloading, with its parameter, and comes back with the back button', async () => {
    act(() => root.render(<App />));
    expect(text()).toContain('home q=');
    const link = container.querySelector<HTMLAnchorElement>('a[href="/KitchenMenu/a%20b"]');
    await act(async () => link?.click());
    expect(window.location.pathname).toBe('/KitchenMenu/a%20b');
    expect(text()).toContain('kitchen a b');
    await act(async () => {
      window.history.back();
      await vi.waitFor(() => expect(window.location.pathname).toBe('/'));
    });
    await vi.waitFor(() => expect(text()).toContain('home q='));
  });

  it('leaves a click with a modifier key to the browser', async () => {
    act(() => root.render(<App />));
    const link = container.querySelector<HTMLAnchorElement>('a[href="/KitchenMenu/a%20b"]');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true, button: 0 });
    // Seen after the router's handler (React listens on its root, inside the document): then kept from happy-dom.
    let leftToBrowser = false;
    const after = (event: Event) => {
      leftToBrowser = !event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', after);
    await act(async () => link?.dispatchEvent(click));
    document.removeEventListener('click', after);
    expect(leftToBrowser).toBe(true);
    expect(text()).toContain('home q=');
  });

  it("leaves a link of a part it does not render to a page it has no route for (the server's own) to the browser", async () => {
    // As a StaticPart hears its links' clicks (the footer's link to /Insurance).
    function Part() {
      const follow = useFollowLinks();
      return (
        <div onClick={(event) => follow(event.nativeEvent)}>
          <a href="/Insurance">insurance</a>
          <a href="/KitchenMenu/x">kitchen x</a>
        </div>
      );
    }
    act(() =>
      root.render(
        <BrowserRouter routes={routes}>
          <Part />
          <Routes layout={Layout} errorPage={<ErrorPage />} />
        </BrowserRouter>,
      ),
    );
    let leftToBrowser = false;
    const after = (event: Event) => {
      leftToBrowser = !event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', after);
    await act(async () => container.querySelector<HTMLAnchorElement>('a[href="/Insurance"]')?.click());
    expect(leftToBrowser).toBe(true);
    expect(window.location.pathname).toBe('/');
    await act(async () => container.querySelector<HTMLAnchorElement>('a[href="/KitchenMenu/x"]')?.click());
    document.removeEventListener('click', after);
    expect(leftToBrowser).toBe(false);
    expect(window.location.pathname).toBe('/KitchenMenu/x');
  });

  it('keeps the way to a page still loading when the page one is on replaces its query meanwhile', async () => {
    let arrive: () => void = () => {};
    const Slow = lazyRoute(
      () =>
        new Promise((resolve) => {
          arrive = () => resolve(() => <p>slow page</p>);
        }),
    );
    act(() => root.render(<App own={[{ path: '/Slow', Component: Slow }, ...routes]} />));
    let way: Promise<void> = Promise.resolve();
    await act(async () => {
      way = go('/Slow');
    });
    // The page one is on tidies its address (as 'Get paid' drops ?payouts=done) while /Slow loads.
    await act(async () => go('/?q=tidied', { replace: true }));
    expect(window.location.pathname + window.location.search).toBe('/?q=tidied');
    await act(async () => {
      arrive();
      await way;
    });
    expect(window.location.pathname).toBe('/Slow');
    expect(text()).toContain('slow page');
  });

  it('marks the current page on its links, / only on itself', async () => {
    act(() => root.render(<App />));
    const brand = container.querySelector('a[href="/"]');
    expect(brand?.getAttribute('aria-current')).toBe('page');
    expect(brand?.className).toBe('brand active');
    expect(container.querySelector('a[href="/Kitchen"]')?.hasAttribute('aria-current')).toBe(false);
    await act(async () => go('/kitchen'));
    expect(text()).toContain('not found');
  });

  it('changes the query with a function of the one shown, replacing the entry', async () => {
    act(() => root.render(<App />));
    const before = window.history.length;
    const more = () => [...container.querySelectorAll('button')].find((b) => b.textContent === 'more');
    await act(async () => more()?.click());
    await act(async () => more()?.click());
    expect(window.location.search).toBe('?q=xx');
    expect(text()).toContain('home q=xx');
    expect(window.history.length).toBe(before);
    // Twice before React draws again: one change (both from the query shown).
    await act(async () => {
      more()?.click();
      more()?.click();
    });
    expect(window.location.search).toBe('?q=xxx');
  });

  it('shows the error page when a page fails, and the next page once the location moves', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    act(() => root.render(<App />));
    await act(async () => go('/Broken'));
    expect(text()).toContain('error: Boom');
    await act(async () => go('/'));
    expect(text()).toContain('home q=');
    quiet.mockRestore();
  });

  it('redirects, replacing the entry', async () => {
    act(() => root.render(<App />));
    await act(async () => go('/Away'));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(text()).toContain('home q=');
  });

  it('keeps the page shown while a page loaded on demand arrives, then moves to it', async () => {
    act(() => root.render(<App />));
    let arrived = false;
    await act(async () => void go('/Later').then(() => (arrived = true)));
    expect(window.location.pathname).toBe('/');
    expect(text()).toContain('home q=');
    expect(text()).not.toContain('loading later');
    expect(arrived).toBe(false);
    await act(async () => release());
    await vi.waitFor(() => expect(text()).toContain('later page'));
    expect(window.location.pathname).toBe('/Later');
    expect(arrived).toBe(true);
  });

  it('shows the fallback of a page loaded on demand the app starts on, then the page; a failed load shows the error page', async () => {
    let finish: (page: () => ReactNode) => void = () => {};
    const Slow = lazyRoute(() => new Promise((resolve) => (finish = resolve)));
    const Gone = lazyRoute(() => Promise.reject(new Error('Chunk gone')));
    const own: Route[] = [
      { path: '/', Component: Slow, fallback: <p>loading slow</p> },
      { path: '/Gone', Component: Gone },
    ];
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    act(() => root.render(<App own={own} />));
    expect(text()).toContain('loading slow');
    await act(async () => finish(() => <p>slow page</p>));
    await vi.waitFor(() => expect(text()).toContain('slow page'));
    await act(async () => go('/Gone'));
    await vi.waitFor(() => expect(text()).toContain('error: Chunk gone'));
    quiet.mockRestore();
  });

  it('of two navigations, the later wins even when the earlier page arrives last', async () => {
    let finish: (page: () => ReactNode) => void = () => {};
    const Slow = lazyRoute(() => new Promise((resolve) => (finish = resolve)));
    const own: Route[] = [
      { path: '/', Component: Home },
      { path: '/Slow', Component: Slow },
      { path: '/KitchenMenu/:id', Component: Kitchen },
    ];
    act(() => root.render(<App own={own} />));
    let slow: Promise<void> = Promise.resolve();
    await act(async () => void (slow = go('/Slow')));
    await act(async () => go('/KitchenMenu/k1'));
    expect(text()).toContain('kitchen k1');
    await act(async () => {
      finish(() => <p>slow page</p>);
      await slow;
    });
    expect(window.location.pathname).toBe('/KitchenMenu/k1');
    expect(text()).toContain('kitchen k1');
  });
});

describe('the router on the server', () => {
  it('renders the page for the URL, with its links marked', () => {
    const html = renderToString(
      <StaticRouter routes={routes} url="/?q=dal">
        <Routes layout={Layout} errorPage={<ErrorPage />} />
      </StaticRouter>,
    );
    expect(html).toContain('home q=<!-- -->dal');
    expect(html).toContain('aria-current="page"');
  });
});
