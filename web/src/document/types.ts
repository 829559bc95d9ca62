// Bindery's document model (docs/document-format.md): GitBook's JSON document tree.
export type Mark = { object: 'mark'; type: string; data: Record<string, unknown> };
export type Leaf = { object: 'leaf'; text: string; marks: Mark[] };
export type Text = { object: 'text'; leaves: Leaf[] };
export type Fragment = { object: 'fragment'; key: string; fragment: string; type?: string; nodes: Block[] };
export type Block = {
  object: 'block';
  type: string;
  key: string;
  isVoid?: boolean;
  data: Record<string, any>;
  nodes?: Node[];
  fragments?: Fragment[];
};
export type Inline = {
  object: 'inline';
  type: string;
  key: string;
  isVoid?: boolean;
  data: Record<string, any>;
  nodes?: Node[];
  fragments?: Fragment[];
};
export type Node = Block | Inline | Text;
export type Doc = { object: 'document'; data: Record<string, unknown>; nodes: Block[] };
export type Ref = { kind: string; url?: string; file?: string; page?: string; space?: string; anchor?: string };
