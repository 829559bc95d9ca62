/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query EditPage($spaceId: ID!, $number: ID!, $path: String!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequest(id: $number) {\n        id number subject status\n        content {\n          ...PageTree\n          pageByPath(path: $path) { id type title path document }\n          files(first: 1000) { nodes { id name } }\n        }\n      }\n    }\n  }\n": typeof types.EditPageDocument,
    "\n  mutation SavePage($spaceId: ID!, $changeRequestId: ID!, $pageId: ID!, $title: String, $markdown: String) {\n    updatePage(target: { spaceId: $spaceId, changeRequestId: $changeRequestId }, pageId: $pageId, input: { title: $title, markdown: $markdown }) {\n      revision { id }\n      page { id title path }\n    }\n  }\n": typeof types.SavePageDocument,
    "\n  fragment ChangeRequestRow on ChangeRequest { id number subject status createdAt updatedAt outdated createdBy { id displayName } }\n": typeof types.ChangeRequestRowFragmentDoc,
    "\n  query ChangeRequestList($spaceId: ID!, $status: ChangeRequestStatus) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequestList(first: 100, status: $status) { totalCount nodes { ...ChangeRequestRow } }\n    }\n  }\n": typeof types.ChangeRequestListDocument,
    "\n  subscription SpaceChangesLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n": typeof types.SpaceChangesLiveDocument,
    "\n  subscription ChangeRequestLive($spaceId: ID!, $changeRequestId: ID!) { changeRequestEvents(spaceId: $spaceId, changeRequestId: $changeRequestId) { id type } }\n": typeof types.ChangeRequestLiveDocument,
    "\n  query ChangeRequestScreen($spaceId: ID!, $number: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      permissions { edit merge }\n      content { ...PageTree }\n      changeRequest(id: $number) {\n        ...ChangeRequestRow\n        content {\n          ...PageTree\n          pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n        }\n      }\n    }\n  }\n": typeof types.ChangeRequestScreenDocument,
    "\n  mutation MergeChangeRequest($spaceId: ID!, $changeRequestId: ID!) {\n    mergeChangeRequest(spaceId: $spaceId, changeRequestId: $changeRequestId) { revision result }\n  }\n": typeof types.MergeChangeRequestDocument,
    "\n  query Home {\n    organizations(first: 1) { nodes { id urls { app } } }\n  }\n": typeof types.HomeDocument,
    "\n  fragment OrganizationSwitcher on Query {\n    organizations(first: 100) { nodes { id title urls { app } } }\n  }\n": typeof types.OrganizationSwitcherFragmentDoc,
    "\n  fragment SpaceCard on Space { id title emoji parent visibility changeRequestsOpen urls { app } }\n": typeof types.SpaceCardFragmentDoc,
    "\n  query OrganizationHome($orgId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id\n      title\n      collections(first: 100) { nodes { id title description parent urls { app } } }\n      spaces(first: 200) { totalCount nodes { ...SpaceCard } }\n      sites(first: 100) { nodes { id title published urls { app published } } }\n    }\n  }\n": typeof types.OrganizationHomeDocument,
    "\n  query CollectionHome($collectionId: ID!) {\n    ...OrganizationSwitcher\n    collection(id: $collectionId) {\n      id title description organization\n      spaces(first: 200) { nodes { ...SpaceCard } }\n    }\n  }\n": typeof types.CollectionHomeDocument,
    "\n  query SiteHome($orgId: ID!, $siteId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id title\n      site(id: $siteId) { id title published visibility urls { app published } }\n    }\n  }\n": typeof types.SiteHomeDocument,
    "\n  fragment PageTreeItem on RevisionPage { id type title path href documentId }\n  fragment PageTree on Revision {\n    id\n    pages {\n      ...PageTreeItem\n      pages { ...PageTreeItem pages { ...PageTreeItem pages { ...PageTreeItem } } }\n    }\n  }\n": typeof types.PageTreeItemFragmentDoc,
    "\n  fragment PageView on RevisionPage { id type title description path document }\n": typeof types.PageViewFragmentDoc,
    "\n  query SpaceScreen($spaceId: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization changeRequestsOpen editMode\n      permissions { edit }\n      content {\n        ...PageTree\n        pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n      }\n    }\n  }\n": typeof types.SpaceScreenDocument,
    "\n  mutation CreateChangeRequest($spaceId: ID!, $subject: String) {\n    createChangeRequest(spaceId: $spaceId, input: { subject: $subject }) { id number subject status urls { app } }\n  }\n": typeof types.CreateChangeRequestDocument,
    "\n  subscription SpaceLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n": typeof types.SpaceLiveDocument,
};
const documents: Documents = {
    "\n  query EditPage($spaceId: ID!, $number: ID!, $path: String!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequest(id: $number) {\n        id number subject status\n        content {\n          ...PageTree\n          pageByPath(path: $path) { id type title path document }\n          files(first: 1000) { nodes { id name } }\n        }\n      }\n    }\n  }\n": types.EditPageDocument,
    "\n  mutation SavePage($spaceId: ID!, $changeRequestId: ID!, $pageId: ID!, $title: String, $markdown: String) {\n    updatePage(target: { spaceId: $spaceId, changeRequestId: $changeRequestId }, pageId: $pageId, input: { title: $title, markdown: $markdown }) {\n      revision { id }\n      page { id title path }\n    }\n  }\n": types.SavePageDocument,
    "\n  fragment ChangeRequestRow on ChangeRequest { id number subject status createdAt updatedAt outdated createdBy { id displayName } }\n": types.ChangeRequestRowFragmentDoc,
    "\n  query ChangeRequestList($spaceId: ID!, $status: ChangeRequestStatus) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequestList(first: 100, status: $status) { totalCount nodes { ...ChangeRequestRow } }\n    }\n  }\n": types.ChangeRequestListDocument,
    "\n  subscription SpaceChangesLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n": types.SpaceChangesLiveDocument,
    "\n  subscription ChangeRequestLive($spaceId: ID!, $changeRequestId: ID!) { changeRequestEvents(spaceId: $spaceId, changeRequestId: $changeRequestId) { id type } }\n": types.ChangeRequestLiveDocument,
    "\n  query ChangeRequestScreen($spaceId: ID!, $number: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      permissions { edit merge }\n      content { ...PageTree }\n      changeRequest(id: $number) {\n        ...ChangeRequestRow\n        content {\n          ...PageTree\n          pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n        }\n      }\n    }\n  }\n": types.ChangeRequestScreenDocument,
    "\n  mutation MergeChangeRequest($spaceId: ID!, $changeRequestId: ID!) {\n    mergeChangeRequest(spaceId: $spaceId, changeRequestId: $changeRequestId) { revision result }\n  }\n": types.MergeChangeRequestDocument,
    "\n  query Home {\n    organizations(first: 1) { nodes { id urls { app } } }\n  }\n": types.HomeDocument,
    "\n  fragment OrganizationSwitcher on Query {\n    organizations(first: 100) { nodes { id title urls { app } } }\n  }\n": types.OrganizationSwitcherFragmentDoc,
    "\n  fragment SpaceCard on Space { id title emoji parent visibility changeRequestsOpen urls { app } }\n": types.SpaceCardFragmentDoc,
    "\n  query OrganizationHome($orgId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id\n      title\n      collections(first: 100) { nodes { id title description parent urls { app } } }\n      spaces(first: 200) { totalCount nodes { ...SpaceCard } }\n      sites(first: 100) { nodes { id title published urls { app published } } }\n    }\n  }\n": types.OrganizationHomeDocument,
    "\n  query CollectionHome($collectionId: ID!) {\n    ...OrganizationSwitcher\n    collection(id: $collectionId) {\n      id title description organization\n      spaces(first: 200) { nodes { ...SpaceCard } }\n    }\n  }\n": types.CollectionHomeDocument,
    "\n  query SiteHome($orgId: ID!, $siteId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id title\n      site(id: $siteId) { id title published visibility urls { app published } }\n    }\n  }\n": types.SiteHomeDocument,
    "\n  fragment PageTreeItem on RevisionPage { id type title path href documentId }\n  fragment PageTree on Revision {\n    id\n    pages {\n      ...PageTreeItem\n      pages { ...PageTreeItem pages { ...PageTreeItem pages { ...PageTreeItem } } }\n    }\n  }\n": types.PageTreeItemFragmentDoc,
    "\n  fragment PageView on RevisionPage { id type title description path document }\n": types.PageViewFragmentDoc,
    "\n  query SpaceScreen($spaceId: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization changeRequestsOpen editMode\n      permissions { edit }\n      content {\n        ...PageTree\n        pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n      }\n    }\n  }\n": types.SpaceScreenDocument,
    "\n  mutation CreateChangeRequest($spaceId: ID!, $subject: String) {\n    createChangeRequest(spaceId: $spaceId, input: { subject: $subject }) { id number subject status urls { app } }\n  }\n": types.CreateChangeRequestDocument,
    "\n  subscription SpaceLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n": types.SpaceLiveDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EditPage($spaceId: ID!, $number: ID!, $path: String!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequest(id: $number) {\n        id number subject status\n        content {\n          ...PageTree\n          pageByPath(path: $path) { id type title path document }\n          files(first: 1000) { nodes { id name } }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query EditPage($spaceId: ID!, $number: ID!, $path: String!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequest(id: $number) {\n        id number subject status\n        content {\n          ...PageTree\n          pageByPath(path: $path) { id type title path document }\n          files(first: 1000) { nodes { id name } }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SavePage($spaceId: ID!, $changeRequestId: ID!, $pageId: ID!, $title: String, $markdown: String) {\n    updatePage(target: { spaceId: $spaceId, changeRequestId: $changeRequestId }, pageId: $pageId, input: { title: $title, markdown: $markdown }) {\n      revision { id }\n      page { id title path }\n    }\n  }\n"): (typeof documents)["\n  mutation SavePage($spaceId: ID!, $changeRequestId: ID!, $pageId: ID!, $title: String, $markdown: String) {\n    updatePage(target: { spaceId: $spaceId, changeRequestId: $changeRequestId }, pageId: $pageId, input: { title: $title, markdown: $markdown }) {\n      revision { id }\n      page { id title path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChangeRequestRow on ChangeRequest { id number subject status createdAt updatedAt outdated createdBy { id displayName } }\n"): (typeof documents)["\n  fragment ChangeRequestRow on ChangeRequest { id number subject status createdAt updatedAt outdated createdBy { id displayName } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChangeRequestList($spaceId: ID!, $status: ChangeRequestStatus) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequestList(first: 100, status: $status) { totalCount nodes { ...ChangeRequestRow } }\n    }\n  }\n"): (typeof documents)["\n  query ChangeRequestList($spaceId: ID!, $status: ChangeRequestStatus) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      changeRequestList(first: 100, status: $status) { totalCount nodes { ...ChangeRequestRow } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SpaceChangesLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n"): (typeof documents)["\n  subscription SpaceChangesLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ChangeRequestLive($spaceId: ID!, $changeRequestId: ID!) { changeRequestEvents(spaceId: $spaceId, changeRequestId: $changeRequestId) { id type } }\n"): (typeof documents)["\n  subscription ChangeRequestLive($spaceId: ID!, $changeRequestId: ID!) { changeRequestEvents(spaceId: $spaceId, changeRequestId: $changeRequestId) { id type } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChangeRequestScreen($spaceId: ID!, $number: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      permissions { edit merge }\n      content { ...PageTree }\n      changeRequest(id: $number) {\n        ...ChangeRequestRow\n        content {\n          ...PageTree\n          pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ChangeRequestScreen($spaceId: ID!, $number: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization\n      permissions { edit merge }\n      content { ...PageTree }\n      changeRequest(id: $number) {\n        ...ChangeRequestRow\n        content {\n          ...PageTree\n          pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MergeChangeRequest($spaceId: ID!, $changeRequestId: ID!) {\n    mergeChangeRequest(spaceId: $spaceId, changeRequestId: $changeRequestId) { revision result }\n  }\n"): (typeof documents)["\n  mutation MergeChangeRequest($spaceId: ID!, $changeRequestId: ID!) {\n    mergeChangeRequest(spaceId: $spaceId, changeRequestId: $changeRequestId) { revision result }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Home {\n    organizations(first: 1) { nodes { id urls { app } } }\n  }\n"): (typeof documents)["\n  query Home {\n    organizations(first: 1) { nodes { id urls { app } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment OrganizationSwitcher on Query {\n    organizations(first: 100) { nodes { id title urls { app } } }\n  }\n"): (typeof documents)["\n  fragment OrganizationSwitcher on Query {\n    organizations(first: 100) { nodes { id title urls { app } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SpaceCard on Space { id title emoji parent visibility changeRequestsOpen urls { app } }\n"): (typeof documents)["\n  fragment SpaceCard on Space { id title emoji parent visibility changeRequestsOpen urls { app } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrganizationHome($orgId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id\n      title\n      collections(first: 100) { nodes { id title description parent urls { app } } }\n      spaces(first: 200) { totalCount nodes { ...SpaceCard } }\n      sites(first: 100) { nodes { id title published urls { app published } } }\n    }\n  }\n"): (typeof documents)["\n  query OrganizationHome($orgId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id\n      title\n      collections(first: 100) { nodes { id title description parent urls { app } } }\n      spaces(first: 200) { totalCount nodes { ...SpaceCard } }\n      sites(first: 100) { nodes { id title published urls { app published } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CollectionHome($collectionId: ID!) {\n    ...OrganizationSwitcher\n    collection(id: $collectionId) {\n      id title description organization\n      spaces(first: 200) { nodes { ...SpaceCard } }\n    }\n  }\n"): (typeof documents)["\n  query CollectionHome($collectionId: ID!) {\n    ...OrganizationSwitcher\n    collection(id: $collectionId) {\n      id title description organization\n      spaces(first: 200) { nodes { ...SpaceCard } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SiteHome($orgId: ID!, $siteId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id title\n      site(id: $siteId) { id title published visibility urls { app published } }\n    }\n  }\n"): (typeof documents)["\n  query SiteHome($orgId: ID!, $siteId: ID!) {\n    ...OrganizationSwitcher\n    organization(id: $orgId) {\n      id title\n      site(id: $siteId) { id title published visibility urls { app published } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PageTreeItem on RevisionPage { id type title path href documentId }\n  fragment PageTree on Revision {\n    id\n    pages {\n      ...PageTreeItem\n      pages { ...PageTreeItem pages { ...PageTreeItem pages { ...PageTreeItem } } }\n    }\n  }\n"): (typeof documents)["\n  fragment PageTreeItem on RevisionPage { id type title path href documentId }\n  fragment PageTree on Revision {\n    id\n    pages {\n      ...PageTreeItem\n      pages { ...PageTreeItem pages { ...PageTreeItem pages { ...PageTreeItem } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PageView on RevisionPage { id type title description path document }\n"): (typeof documents)["\n  fragment PageView on RevisionPage { id type title description path document }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SpaceScreen($spaceId: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization changeRequestsOpen editMode\n      permissions { edit }\n      content {\n        ...PageTree\n        pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SpaceScreen($spaceId: ID!, $path: String!, $withPage: Boolean!) {\n    ...OrganizationSwitcher\n    space(id: $spaceId) {\n      id title organization changeRequestsOpen editMode\n      permissions { edit }\n      content {\n        ...PageTree\n        pageByPath(path: $path) @include(if: $withPage) { ...PageView }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateChangeRequest($spaceId: ID!, $subject: String) {\n    createChangeRequest(spaceId: $spaceId, input: { subject: $subject }) { id number subject status urls { app } }\n  }\n"): (typeof documents)["\n  mutation CreateChangeRequest($spaceId: ID!, $subject: String) {\n    createChangeRequest(spaceId: $spaceId, input: { subject: $subject }) { id number subject status urls { app } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SpaceLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n"): (typeof documents)["\n  subscription SpaceLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;