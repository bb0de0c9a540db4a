import { PRODUCT_WORDS } from "@/lib/debate/methods";
import type { ProductLabel } from "@/lib/debate/types";

const STYLE: Record<ProductLabel, string> = {
  TRUE: "bg-emerald-700 text-white",
  "HALF-TRUE": "bg-amber-400 text-black",
  FALSE: "bg-red-700 text-white",
};

/** The newsroom's rating in its own words, coloured by where it sits on the scale (the scale's words beside it). */
export function RatingBadge({ rating, textual, size = "lg" }: { rating: string; textual: string; size?: "lg" | "sm" }) {
  const product = (rating in STYLE ? rating : "HALF-TRUE") as ProductLabel;
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="rating">
      <span
        className={`rounded font-bold tracking-wide print:border print:border-black print:bg-white print:text-black ${STYLE[product]} ${size === "lg" ? "px-3 py-1 text-xl" : "px-2 py-0.5 text-sm"}`}
      >
        {textual}
      </span>
      {textual.toLowerCase() !== PRODUCT_WORDS[product].toLowerCase() ? (
        <span className="text-sm text-black/60">on the scale: {PRODUCT_WORDS[product]}</span>
      ) : null}
    </span>
  );
}
