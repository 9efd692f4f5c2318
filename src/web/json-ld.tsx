/** A schema.org JSON-LD block for a page's head. */
export function JsonLd({ data }: { data: unknown }) {
  // Script content is not HTML-escaped, so `<` becomes \u003c: no value can close the block
  // early ("</script>") or open a comment; JSON parsers read the escape back as `<`.
  const json = JSON.stringify(data, null, 2).replace(/</g, "\\u003c");
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: `\n${json}\n` }} />;
}
