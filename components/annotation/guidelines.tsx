import { Fragment } from "react";
import { parseMarkdown, type Inline } from "@/lib/annotation/markdown";

function Spans({ inline }: { inline: Inline[] }) {
  return inline.map((s, i) =>
    s.kind === "strong" ? (
      <strong key={i}>{s.text}</strong>
    ) : s.kind === "em" ? (
      <em key={i}>{s.text}</em>
    ) : s.kind === "code" ? (
      <code key={i} className="rounded bg-black/5 px-1">
        {s.text}
      </code>
    ) : (
      <Fragment key={i}>{s.text}</Fragment>
    ),
  );
}

export function Guidelines({ source }: { source: string }) {
  return (
    <div className="space-y-2 text-sm leading-relaxed" data-testid="guidelines">
      {parseMarkdown(source).map((b, i) => {
        if (b.kind === "heading") {
          const Tag = (["h3", "h4", "h5"] as const)[b.level - 1]!;
          return (
            <Tag key={i} className="font-semibold">
              <Spans inline={b.inline} />
            </Tag>
          );
        }
        if (b.kind === "list") {
          const Tag = b.ordered ? "ol" : "ul";
          return (
            <Tag key={i} className={`space-y-1 pl-5 ${b.ordered ? "list-decimal" : "list-disc"}`}>
              {b.items.map((it, j) => (
                <li key={j}>
                  <Spans inline={it} />
                </li>
              ))}
            </Tag>
          );
        }
        return (
          <p key={i}>
            <Spans inline={b.inline} />
          </p>
        );
      })}
    </div>
  );
}
