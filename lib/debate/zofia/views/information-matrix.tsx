"use client";

/*
 * Which of the four kinds of information each agent was given (the paper's 2×2: what is in the
 * article, what the web says, what the model already knows, what the encyclopedia says). A reader
 * judging a verdict needs to know, for instance, that the verifier saw only web text.
 */

type Cell = "yes" | "no" | "off";
type Row = { agent: string; role: string; note: string; article: Cell; web: Cell; knowledge: Cell; wiki: Cell };

/** What a turn's metadata says its agent was given (`metadata.zofia.sees`, written by the protocol). */
export type Sees = { article?: boolean; web?: boolean; wikipedia?: boolean; llm?: boolean };

export type MatrixInput = {
  webOn: boolean;
  wikiOn: boolean;
  webResults: number;
  wikiEntries: number;
  disabled: Set<string>;
  sees?: Record<string, Sees>;
};

/** The protocol's own record wins over the page's reading of the paper; web and Wikipedia turned off read as unavailable. */
function fromSees(row: Row, sees: Sees | undefined, webOn: boolean, wikiOn: boolean): Row {
  if (!sees) return row;
  const cell = (given: boolean | undefined, on = true): Cell => (given ? (on ? "yes" : "off") : "no");
  return {
    ...row,
    article: cell(sees.article),
    web: cell(sees.web, webOn),
    knowledge: cell(sees.llm),
    wiki: cell(sees.wikipedia, wikiOn),
  };
}

function rows({ webOn, wikiOn, disabled, sees = {} }: MatrixInput): Row[] {
  const web: Cell = webOn ? "yes" : "off";
  const wiki: Cell = wikiOn ? "yes" : "off";
  const all: Row[] = [
    {
      agent: "Linguist",
      role: "linguist",
      note: "five separate readings of the article's language",
      article: "yes",
      web: "no",
      knowledge: "yes",
      wiki: "no",
    },
    {
      agent: "Domain expert",
      role: "expert",
      note: "encyclopedia text for reference only",
      article: "yes",
      web: "no",
      knowledge: "yes",
      wiki,
    },
    {
      agent: "Claim extractor",
      role: "extractor",
      note: "told to invent nothing the article does not say",
      article: "yes",
      web: "no",
      knowledge: "no",
      wiki: "no",
    },
    {
      agent: "Claim verifier",
      role: "verifier",
      note: "each claim with the web sentences closest to it, told to treat them as reliable",
      article: "no",
      web,
      knowledge: "no",
      wiki: "no",
    },
    {
      agent: "Advocate (argues real)",
      role: "pro",
      note: "article, passages and every report",
      article: "yes",
      web,
      knowledge: "yes",
      wiki,
    },
    {
      agent: "Critic (argues fake)",
      role: "con",
      note: "article, passages and every report",
      article: "yes",
      web,
      knowledge: "yes",
      wiki,
    },
    {
      agent: "Judge",
      role: "judge",
      note: "reads the debate only",
      article: "no",
      web: "no",
      knowledge: "yes",
      wiki: "no",
    },
  ];
  return all.filter((r) => !disabled.has(r.role)).map((r) => fromSees(r, sees[r.role], webOn, wikiOn));
}

const CELL_STYLE: Record<Cell, string> = {
  yes: "bg-emerald-50 text-emerald-950 border-emerald-200",
  no: "bg-white text-black/60 border-black/10",
  off: "bg-stone-100 text-black/60 border-dashed border-black/20",
};

function CellBox({
  label,
  state,
  detail,
  offText = "unavailable",
}: {
  label: string;
  state: Cell;
  detail?: string;
  offText?: string;
}) {
  return (
    <div className={`min-w-0 rounded border px-1.5 py-1 text-xs ${CELL_STYLE[state]}`}>
      <span aria-hidden>{state === "yes" ? "✓ " : state === "no" ? "– " : "⊘ "}</span>
      <span className="break-words">{label}</span>
      <span className="sr-only">{state === "yes" ? ": used" : state === "no" ? ": not given" : ": unavailable"}</span>
      {state === "yes" && detail ? <span className="block text-[11px] opacity-70">{detail}</span> : null}
      {state === "off" ? <span className="block text-[11px]">{offText}</span> : null}
    </div>
  );
}

export function InformationMatrix(input: MatrixInput) {
  return (
    <ul className="grid min-w-0 gap-2 sm:grid-cols-2 lg:grid-cols-4" data-testid="zofia-matrix">
      {rows(input).map((r) => (
        <li key={r.role} className="min-w-0 rounded-lg border border-black/10 bg-white p-2" data-agent={r.role}>
          <p className="text-sm font-semibold">{r.agent}</p>
          <p className="mb-1.5 text-xs text-black/60">{r.note}</p>
          <div className="grid grid-cols-2 gap-1">
            <CellBox label="In the article" state={r.article} />
            <CellBox
              label="Web"
              state={r.web}
              detail={`${input.webResults} ${input.webResults === 1 ? "passage" : "passages"}`}
              offText="web search off"
            />
            <CellBox label="Model knowledge" state={r.knowledge} />
            <CellBox
              label="Wikipedia"
              state={r.wiki}
              detail={`${input.wikiEntries} ${input.wikiEntries === 1 ? "entry" : "entries"}`}
              offText="encyclopedia lookup unavailable"
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
