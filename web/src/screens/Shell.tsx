import type { ReactNode } from 'react';
import { Link, appPath } from '../router';

export type OrgLink = { id: string; title: string; urls: { app: string } };

/** Shell is every signed-in screen's frame: the organization switcher and sign-out. */
export function Shell({ orgs, current, crumbs, children }: {
  orgs?: OrgLink[];
  current?: string;
  crumbs?: { href: string; label: string }[];
  children: ReactNode;
}) {
  return (
    <>
      <header className="bar">
        <Link href="/" className="brand">Bindery</Link>
        {orgs && orgs.length > 0 && (
          <label className="switch">
            <span className="visually-hidden">Organization</span>
            <select
              value={current ?? ''}
              onChange={(e) => {
                const o = orgs.find((x) => x.id === e.target.value);
                if (o) location.assign(appPath(o.urls.app));
              }}
            >
              {!current && <option value="">Choose an organization</option>}
              {orgs.map((o) => <option key={o.id} value={o.id}>{o.title}</option>)}
            </select>
          </label>
        )}
        {crumbs && crumbs.length > 0 && (
          <nav aria-label="Breadcrumb" className="crumbs">
            <ol>{crumbs.map((c) => <li key={c.href}><Link href={c.href}>{c.label}</Link></li>)}</ol>
          </nav>
        )}
        <form method="post" action="/auth/sign-out" className="signout" onSubmit={async (e) => {
          e.preventDefault();
          await fetch('/auth/sign-out', { method: 'POST', credentials: 'same-origin' });
          location.assign('/sign-in');
        }}>
          <button type="submit" className="link">Sign out</button>
        </form>
      </header>
      <main className="screen" id="main">{children}</main>
    </>
  );
}
