import { Client, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createLiveClient } from 'graphql-ws';
import { cacheExchange } from '@urql/exchange-graphcache';
import { persistedExchange } from '@urql/exchange-persisted';
import type { DocumentNode } from 'graphql';

// Types without an id of their own are embedded in their parent's cache entry. RevisionPage is
// one of them: a page keeps its id across revisions while its content differs, so it must never
// be shared between the space's revision and a change request's.
const embedded = () => null;

// Live updates: graphql-ws over a websocket to /graphql on the app's own origin (the session
// cookie goes with the handshake). It connects on the first subscription, and reconnects itself.
const live = createLiveClient({
  url: () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
  lazy: true,
  retryAttempts: Infinity,
  shouldRetry: () => true,
});

export const client = new Client({
  url: '/graphql',
  fetchOptions: { credentials: 'same-origin' },
  requestPolicy: 'cache-and-network',
  exchanges: [
    cacheExchange({
      keys: {
        PageInfo: embedded, AppURLs: embedded, LocationAppURLs: embedded, SpaceURLs: embedded,
        OrganizationURLs: embedded, PageLayout: embedded, MergeResult: embedded, PageEdit: embedded,
        RevisionPage: embedded, SpacePermissions: embedded, CollectionPermissions: embedded,
        OrganizationConnection: embedded, SpaceConnection: embedded, CollectionConnection: embedded,
        ChangeRequestConnection: embedded, SiteURLs: embedded, SiteConnection: embedded,
      },
    }),
    // Only the documents built into the app run with a session cookie (trusted documents): send
    // their hash, never their text.
    persistedExchange({
      enforcePersistedQueries: true,
      enableForMutation: true,
      enableForSubscriptions: true,
      preferGetForPersistedQueries: false,
      generateHash: async (_query: string, document: DocumentNode) =>
        (document as DocumentNode & { __meta__?: { hash?: string } }).__meta__?.hash ?? '',
    }),
    // A subscription names its persisted document by hash too: its text is never sent.
    subscriptionExchange({
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({
          unsubscribe: live.subscribe({ query: request.query ?? '', variables: request.variables, extensions: request.extensions }, sink),
        }),
      }),
    }),
    fetchExchange,
  ],
});
