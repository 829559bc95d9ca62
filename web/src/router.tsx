import { useEffect, useState } from 'react';

// A small history router: the app's routes are the urls.app the API returns (docs/app.md).
export type Route =
  | { name: 'home' }
  | { name: 'signIn'; returnTo: string }
  | { name: 'organization'; orgId: string }
  | { name: 'collection'; collectionId: string }
  | { name: 'site'; orgId: string; siteId: string }
  | { name: 'space'; spaceId: string; pagePath: string }
  | { name: 'changeRequests'; spaceId: string }
  | { name: 'changeRequest'; spaceId: string; number: number; pagePath: string; edit: boolean }
  | { name: 'notFound' };

const seg = (s: string) => decodeURIComponent(s);

export function parseRoute(pathname: string, search: string): Route {
  const parts = pathname.split('/').filter(Boolean);
  if (parts.length === 0) return { name: 'home' };
  if (parts[0] === 'sign-in') {
    const r = new URLSearchParams(search).get('return') ?? '/';
    return { name: 'signIn', returnTo: r.startsWith('/') && !r.startsWith('//') ? r : '/' };
  }
  if (parts[0] === 'o' && parts.length === 2) return { name: 'organization', orgId: seg(parts[1]) };
  if (parts[0] === 'o' && parts.length === 4 && parts[2] === 'sites') return { name: 'site', orgId: seg(parts[1]), siteId: seg(parts[3]) };
  if (parts[0] === 'c' && parts.length === 2) return { name: 'collection', collectionId: seg(parts[1]) };
  if (parts[0] === 's' && parts.length >= 2) {
    const spaceId = seg(parts[1]);
    const rest = parts.slice(2);
    if (rest[0] === '~' && rest[1] === 'changes') {
      if (rest.length === 2) return { name: 'changeRequests', spaceId };
      const number = Number(rest[2]);
      if (!Number.isInteger(number) || number < 1) return { name: 'notFound' };
      const edit = rest[3] === 'edit';
      const pagePath = rest.slice(edit ? 4 : 3).map(seg).join('/');
      return { name: 'changeRequest', spaceId, number, pagePath, edit };
    }
    return { name: 'space', spaceId, pagePath: rest.map(seg).join('/') };
  }
  return { name: 'notFound' };
}

export function navigate(to: string, replace = false) {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [loc, setLoc] = useState(() => ({ p: location.pathname, s: location.search }));
  useEffect(() => {
    const on = () => setLoc({ p: location.pathname, s: location.search });
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return parseRoute(loc.p, loc.s);
}

/** Link is an anchor that navigates inside the app without reloading it. */
export function Link(props: React.AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { href, onClick, ...rest } = props;
  return (
    <a
      href={href}
      {...rest}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    />
  );
}

/** appPath turns a urls.app value into a path inside this app (it may carry another origin). */
export function appPath(url: string): string {
  try {
    const u = new URL(url, location.origin);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
