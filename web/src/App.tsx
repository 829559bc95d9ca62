import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useRoute, Link } from './router';
import { Home } from './screens/Home';
import { SignIn } from './screens/SignIn';
import { OrganizationScreen, CollectionScreen, SiteScreen } from './screens/Organization';
import { SpaceScreen } from './screens/Space';
import { ChangeRequestsScreen, ChangeRequestScreen } from './screens/ChangeRequests';
import { Loading } from './errors';

const EditScreen = lazy(() => import('./editor/EditScreen'));

/** Crash keeps a rendering failure from leaving a blank screen. */
class Crash extends Component<{ children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (this.state.error) {
      return (
        <main className="screen">
          <div className="problem" role="alert">
            <h1>This screen could not be shown</h1>
            <p>{this.state.error.message}. Reload the page, or go back to <a href="/">your organization</a>.</p>
          </div>
        </main>
      );
    }
    return this.props.children;
  }
}

export function App() {
  const route = useRoute();
  let screen: ReactNode;
  switch (route.name) {
    case 'home':
      screen = <Home />;
      break;
    case 'signIn':
      screen = <SignIn returnTo={route.returnTo} />;
      break;
    case 'organization':
      screen = <OrganizationScreen orgId={route.orgId} />;
      break;
    case 'collection':
      screen = <CollectionScreen collectionId={route.collectionId} />;
      break;
    case 'site':
      screen = <SiteScreen orgId={route.orgId} siteId={route.siteId} />;
      break;
    case 'space':
      screen = <SpaceScreen spaceId={route.spaceId} pagePath={route.pagePath} />;
      break;
    case 'changeRequests':
      screen = <ChangeRequestsScreen spaceId={route.spaceId} />;
      break;
    case 'changeRequest':
      screen = route.edit ? (
        <Suspense fallback={<main className="screen"><Loading what="the editor" /></main>}>
          <EditScreen spaceId={route.spaceId} number={route.number} pagePath={route.pagePath} />
        </Suspense>
      ) : (
        <ChangeRequestScreen spaceId={route.spaceId} number={route.number} pagePath={route.pagePath} />
      );
      break;
    default:
      screen = (
        <main className="screen">
          <h1>Page not found</h1>
          <p>There is nothing at this address. <Link href="/">Go to your organization</Link>.</p>
        </main>
      );
  }
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <Crash key={location.pathname}>{screen}</Crash>
    </>
  );
}
