export default function EditScreen(_: { spaceId: string; number: number; pagePath: string }) {
  return <main className="screen" id="main"><p>The editor is not built yet.</p></main>;
}
