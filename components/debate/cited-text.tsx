"use client";

/**
 * Agent output is shown as plain text (React escapes it; no HTML from a model is ever rendered),
 * with each [E3] citation turned into a button that highlights that passage.
 */
export function CitedText({ text, onCite }: { text: string; onCite: (rank: number) => void }) {
  const parts = text.split(/(\[E\d+(?:\s*,\s*E?\d+)*\])/g);
  return (
    <p className="whitespace-pre-wrap break-words leading-relaxed">
      {parts.map((part, i) => {
        const ids = /^\[(E\d+(?:\s*,\s*E?\d+)*)\]$/.exec(part);
        if (!ids) return <span key={i}>{part}</span>;
        const ranks = ids[1]!.split(",").map((x) => Number(x.replace(/\D/g, "")));
        return (
          <span key={i}>
            [
            {ranks.map((r, j) => (
              <span key={r}>
                {j > 0 ? ", " : ""}
                <button
                  type="button"
                  className="font-medium text-accent underline decoration-dotted underline-offset-2 hover:decoration-solid"
                  onClick={() => onCite(r)}
                  aria-label={`Show evidence E${r}`}
                >
                  E{r}
                </button>
              </span>
            ))}
            ]
          </span>
        );
      })}
    </p>
  );
}
