import type { CodegenConfig } from '@graphql-codegen/cli';
import { addTypenameSelectionDocumentTransform } from '@graphql-codegen/client-preset';

// Every operation in src/ is typed from the server's schema, so a schema change that breaks the
// app fails the build; the client preset also writes the persisted-documents manifest (hash →
// document) that the server embeds: a signed-in browser may run only those (docs/app.md).
const config: CodegenConfig = {
  schema: ['../schema.graphqls', '../graph/schema/*.graphqls'],
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**/*'],
  ignoreNoDocuments: false,
  generates: {
    './src/gql/': {
      preset: 'client',
      // Graphcache normalizes by __typename: the persisted documents must ask for it themselves.
      documentTransforms: [addTypenameSelectionDocumentTransform],
      presetConfig: {
        fragmentMasking: false,
        persistedDocuments: { mode: 'embedHashInDocument', hashAlgorithm: 'sha256' },
      },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { Time: 'string', JSON: 'unknown', Document: 'unknown', Upload: 'File', GlossaryTranslations: 'unknown' },
      },
    },
  },
};
export default config;
