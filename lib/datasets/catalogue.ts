import fnnSources from "./sources/fakenewsnet-v1-politifact.json";
import pfhRecipe from "./sources/politifact-hidden.json";

/**
 * Every dataset the presets and benchmarks use, in one place: where each file comes from (a public
 * repository pinned to a commit), its licence, size and SHA-256 as published there. `dataset
 * download <name>` fetches the files and installs them under DATA_DIR/datasets/<name> only when
 * every checksum matches; `--from <folder>` installs a copy already at hand after the same check.
 *
 * A file marked `built` does not exist as one file at its source: it is assembled from the source
 * files it lists (each checked against its own checksum), and the result is checked against the
 * checksum given here. A dataset with `manual` has no file that can be fetched directly: the steps
 * say what a user must do.
 */

/** Where the raw files are served; DATASETS_BASE_URL replaces it (a mirror, or a scripted server in tests). */
export const RAW_BASE_URL = "https://raw.githubusercontent.com";

/** A source file of a built file; `repo` / `commit` when it is not in the built file's own. */
export type SourceFile = { path: string; bytes: number; sha256: string; repo?: string; commit?: string };

export type CatalogueFile = {
  /** Where it is installed, relative to DATA_DIR/datasets/<name>. */
  path: string;
  /** The file's path in the source repository (absent for a built file). */
  from?: string;
  bytes: number;
  sha256: string;
  /**
   * The same records in another published form (checksummed like the file), which
   * `dataset download --from` installs, under the copy's own path, when the folder holds it instead.
   */
  copies?: readonly { path: string; bytes: number; sha256: string; how: string }[];
  /** Assembled from these source files (in the given repository and commit) by `builder`. */
  built?: {
    repo: string;
    commit: string;
    builder: "fakenewsnet-v1-politifact" | "politifact-hidden" | null;
    how: string;
    sources: readonly SourceFile[];
  };
};

export type CatalogueEntry = {
  name: string;
  title: string;
  /** What it is for, as `dataset list` says it. */
  purpose: string;
  /** The names `eval --dataset` / presets / `bench` use for data in this folder. */
  serves: readonly string[];
  licence: string;
  repo?: string;
  commit?: string;
  files: readonly CatalogueFile[];
  /** When no file can be fetched directly: the steps a user takes. */
  manual?: string;
};

/** The CheckThat! 2024 files as JSON Lines, the form evaluation sets are often passed around in. */
const JSON_LINES_COPY =
  'the same sentences as JSON Lines, one {"id", "text", "label": 1 for Yes / 0 for No, "source"} per line; bench checkworthy and the training script read either form';

/** PolitiFact-Hidden's sources: files of tangyixuan/RADAR and rebeccazyr/mad, each at the commit that holds it. */
const PFH = {
  repo: "rebeccazyr/mad",
  commit: "11f0e958da9f028029d89fd029850b95003d4a5e",
  builder: "politifact-hidden",
  sources: pfhRecipe.files,
} as const;

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: "politifact-hidden",
    title:
      "PolitiFact-Hidden (RADAR's benchmark): 2,000 test claims, a part of the 41,952-sentence corpus, the balanced 150-claim subset",
    purpose:
      "RADAR presets (radar-politifact-gold, radar-politifact-retrieved); bench retrieval --dataset politifact-hidden; ingest --dataset politifact-hidden",
    serves: ["politifact-hidden", "politifact-hidden-150"],
    licence: "none stated; PolitiFact text, research use only",
    // All three are built from the same 17 files of the two repositories (lib/datasets/sources/politifact-hidden.json
    // names each one's role); each is fetched once per download and checked against its own checksum.
    files: [
      {
        path: "test_claims.jsonl",
        bytes: 2238290,
        sha256: "08e0d377e0d4af994df64d0271074316e301739065f89e89583728a7728ca0c4",
        built: {
          ...PFH,
          how: "one line per test claim: the claim (chroma/example_to_claim.json) and label (train/data/GT_test_all.json), the gold evidence ids (chroma/evidence_map.json), the authors' bge-base top 20 with distances rounded to 6 decimals (chroma/20_retrieved_evidence_map_bgebase_score.json), and whether every gold sentence has a text in corpus_partial.jsonl",
        },
      },
      {
        path: "corpus_partial.jsonl",
        bytes: 3166759,
        sha256: "c435e36324862da07c7608758fc621a30efc6d9222c084fca029297848dd5c43",
        built: {
          ...PFH,
          how: "{id, text} for every corpus sentence whose text is published: files listing evidence texts per claim, aligned position by position with the files listing the same evidence's ids (8 such pairs across both repositories; 14,879 of 41,952 sentences; the authors' id-to-text file is not published)",
        },
      },
      {
        path: "subset150_balanced.jsonl",
        bytes: 1286761,
        sha256: "e578e8f124f2936ccb4cae02b95d83f69c90d1a5b9db6fa15988f95284c361f2",
        built: {
          ...PFH,
          how: "the balanced 150 (the claims of RADAR's data/retrieved_evidence_bgebase_20_veracity150.json) with the texts of their gold evidence and of their bge-base top 20",
        },
      },
    ],
  },
  {
    name: "averitec",
    title: "AVeriTeC dev: 500 real-world claims with annotators' question-answer evidence",
    purpose: "radar-averitec, toolmad-averitec",
    serves: ["averitec"],
    licence: "CC BY-NC 4.0",
    repo: "MichSchli/AVeriTeC",
    commit: "7c62d1ec8df3fb560d6efe2b85fa191135636f81",
    files: [
      {
        path: "dev.json",
        from: "data/dev.json",
        bytes: 1785475,
        sha256: "499793726b4a5406780928a3d9dedc48d6dd53de778f22437d129cacdb08e300",
      },
    ],
  },
  {
    name: "check-covid",
    title: "Check-COVID: 1,504 COVID-19 claims (train / dev / test) and the 347 abstracts holding their evidence",
    purpose:
      "the closed-world corpus of the proclaim-* presets (ingest --dataset check-covid); bench retrieval --dataset check-covid; eval --dataset check-covid",
    serves: ["check-covid"],
    licence: "MIT",
    repo: "posuer/Check-COVID",
    commit: "3ae70f8cac4df13a3ce56878e20d8e76790e422d",
    files: [
      {
        path: "corpus.json",
        from: "Check-COVID/corpus.json",
        bytes: 635536,
        sha256: "2a56084b933f28ec02781a9e501082683ca4b9c4c1c6c8530190d6fb0002ce42",
      },
      {
        path: "train/covidCheck_train_composed.json",
        from: "Check-COVID/train/covidCheck_train_composed.json",
        bytes: 238847,
        sha256: "7af449be57bd23c997816a4a55ec4f63594513db67c7eefa99b1d1eb6b85ca06",
      },
      {
        path: "train/covidCheck_train_extracted.json",
        from: "Check-COVID/train/covidCheck_train_extracted.json",
        bytes: 78567,
        sha256: "77e336d0d6247cdfae3e5242e5eaa8223ea74885c977bb10cde0039675150585",
      },
      {
        path: "train/covidCheck_train_composed+extracted.json",
        from: "Check-COVID/train/covidCheck_train_composed+extracted.json",
        bytes: 317414,
        sha256: "1af4b5e364129631b49a9132cadcd4f1b4937c90bef22ba0c08242be1630858b",
      },
      {
        path: "dev/covidCheck_dev_composed.json",
        from: "Check-COVID/dev/covidCheck_dev_composed.json",
        bytes: 44398,
        sha256: "ba71f3fdd6d48b2879374319a636e32c1b167835774f16fafab4e66dd7bac801",
      },
      {
        path: "dev/covidCheck_dev_extracted.json",
        from: "Check-COVID/dev/covidCheck_dev_extracted.json",
        bytes: 16076,
        sha256: "c74fedf44f8446d52c93eafa7631c074796b0a1de47c981e931f15422eeacab5",
      },
      {
        path: "dev/covidCheck_dev_composed+extracted.json",
        from: "Check-COVID/dev/covidCheck_dev_composed+extracted.json",
        bytes: 60287,
        sha256: "e64723a546c0ace6a6e1b022120664f36fe4c481e4a9f2d24e5dddc044bee717",
      },
      {
        path: "test/covidCheck_test_composed.json",
        from: "Check-COVID/test/covidCheck_test_composed.json",
        bytes: 50897,
        sha256: "24e51eef9c9741c7766fd9df60d03faca7494eae695d59d99135067f9916b440",
      },
      {
        path: "test/covidCheck_test_extracted.json",
        from: "Check-COVID/test/covidCheck_test_extracted.json",
        bytes: 18431,
        sha256: "4e9a903d3e55d1d7121bdf1c82e28d1490bccbe64e4e06b2b8990b900a7b4985",
      },
      {
        path: "LICENSE",
        from: "LICENSE",
        bytes: 1076,
        sha256: "ead1a5b6c71fc912da18df21ba3a0a6b713da2b13939cbb2f02fb97c06fb99eb",
      },
    ],
  },
  {
    name: "proclaim-subsets",
    title:
      "PROClaim's evaluation subsets: the 121 composed Check-COVID test claims; 100 each of FEVEROUS, HealthVer, SciFact",
    purpose: "proclaim-checkcovid (and its ablations), proclaim-healthver, proclaim-feverous, proclaim-scifact",
    serves: ["proclaim-checkcovid", "proclaim-healthver", "proclaim-feverous", "proclaim-scifact"],
    licence: "none stated (the authors' repository); the upstream datasets' terms apply",
    repo: "mnc13/PROClaim",
    commit: "d8500955aa9bb5c7871571c5fdee0fa695b930cf",
    files: [
      {
        path: "checkcovid_test_composed_121.jsonl",
        from: "Check-COVID/test/covidCheck_test_data.json",
        bytes: 34944,
        sha256: "b26a736e2a955060a00bb96946bbb2837eba29614951eebb492c59040fe44ff8",
      },
      {
        path: "feverous_sample_100.jsonl",
        from: "Other-datasets/feverous_sample_100.jsonl",
        bytes: 52018,
        sha256: "07c7a3cc41fb964018f29061b64099e61d667b366f075f216d73926a33915745",
      },
      {
        path: "healthver_sample_100.jsonl",
        from: "Other-datasets/healthver_sample_100.jsonl",
        bytes: 15559,
        sha256: "89c4cbef0c8c90c6771a852354bff28f8f56fbe5a7fe156653a00fb346ad71f9",
      },
      {
        path: "scifact_sample_100.jsonl",
        from: "Other-datasets/scifact_sample_100.jsonl",
        bytes: 23723,
        sha256: "1eff95e7885a1a93aaaf938b1a40d3b88b69f436dd5c0ea3d20277d9e698b4a7",
      },
    ],
  },
  {
    name: "fever",
    title: "FEVER 1.0 dev, one row per claim (19,998 claims)",
    purpose: "toolmad-fever",
    serves: ["fever"],
    licence: "FEVER terms (Wikipedia-derived, CC BY-SA)",
    repo: "wait22065/fact_verification",
    commit: "e959552d4bc394b7b2217f1f1858566823991af0",
    files: [
      {
        path: "fever_labelled_dev.json",
        from: "data/fever_labelled_dev.json",
        bytes: 3376935,
        sha256: "e22861bba3ee8489b3f2a8f854f4de6122a1e790eb887a772143b0ab3c6f51be",
      },
    ],
  },
  {
    name: "feverous",
    title: "FEVEROUS-S dev: 2,962 claims with their gold evidence sentences",
    purpose: "toolmad-feverous (claims, and the feverous-gold corpus: ingest --dataset feverous-gold)",
    serves: ["feverous", "feverous-gold"],
    licence: "MIT (ProgramFC); FEVEROUS terms (Wikipedia-derived)",
    repo: "teacherpeterpan/ProgramFC",
    commit: "5957016c1556dc5a2a6ea92c7b1ab68d289f8911",
    files: [
      {
        path: "feverous_s_dev.json",
        from: "datasets/FEVEROUS/claims/dev.json",
        bytes: 2000571,
        sha256: "ace38f60e2fee1e6cbd1254bc10d22f57cd3502e8b9b1a704fbbeccbc1577325",
      },
    ],
  },
  {
    name: "politifact-news",
    title:
      "PolitiFact news articles, fake and real: PolitiFact++ human-written (97 / 194) and FakeNewsNet v1 PolitiFact (120 / 120)",
    purpose: "zofia-politifact; eval --dataset politifact-news (--source politifact-pp | fakenewsnet-v1)",
    serves: ["politifact-news"],
    licence: "none stated; research use",
    repo: "mbzuai-nlp/Fakenews-dataset",
    commit: "fcb97e4666f2e9b0340527dc299a9c3eca50b2ae",
    files: [
      {
        path: "politifact_pp/HF.json",
        from: "Dataset/PolitiFact++/HF.json",
        bytes: 279901,
        sha256: "6cbd400f6ba6cd987810c5174d116dd863603a12349dce40f91b1c82468ae9a2",
      },
      {
        path: "politifact_pp/HR.json",
        from: "Dataset/PolitiFact++/HR.json",
        bytes: 3421703,
        sha256: "f84806b59e2474fd935f1a0fa8689b652dcb3d0324f30c5cfc0034172e01697e",
      },
      {
        path: "fakenewsnet_v1/politifact_v1_240.jsonl",
        bytes: 852782,
        sha256: "b174e9b4695dd526dbee85ca81638168014944439a2160418cf2859f0bfa67ca",
        built: {
          repo: "KaiDMML/FakeNewsNet",
          commit: "15f35bd0769cbb850249a9011fc8dd34c1cd62d6",
          builder: "fakenewsnet-v1-politifact",
          how: "the 240 article files Data/PolitiFact/{Fake,Real}NewsContent/PolitiFact_{Fake,Real}_<n>-Webpage.json joined into one line each: {id, label: fake|real, title, text, url, source, publish_date, authors, src_path}",
          sources: (fnnSources as Array<[string, number, string]>).map(([path, bytes, sha256]) => ({
            path,
            bytes,
            sha256,
          })),
        },
      },
    ],
  },
  {
    name: "faviq",
    title: "FaVIQ A set (ambiguity-derived claims, SUPPORTS / REFUTES)",
    purpose: "toolmad-faviq",
    serves: ["faviq"],
    licence: "as stated by its authors at github.com/faviq/faviq",
    files: [],
    manual:
      "FaVIQ is published as a zip file linked from github.com/faviq/faviq (faviq_a_set_v1.2.zip), not as a file in the repository, so it has no checksum here. Download the zip from that page, unzip it, and pass the folder holding dev.jsonl: npx counterpoint eval --preset toolmad-faviq --data <folder>.",
  },
  {
    name: "gossipcop",
    title: "GossipCop news articles (FakeNewsNet)",
    purpose: "zofia-gossipcop",
    serves: ["gossipcop"],
    licence: "FakeNewsNet's terms (research use); article text belongs to its publishers",
    files: [],
    manual:
      "FakeNewsNet publishes GossipCop as ids and URLs only; the article text must be crawled. Run FakeNewsNet's crawler (github.com/KaiDMML/FakeNewsNet, code/main.py with the gossipcop data) and pass the folder holding gossipcop/{fake,real}/<id>/news content.json, or a gossipcop*.jsonl of rows {id, label: fake|real, title, text, url, publish_date}: npx counterpoint eval --preset zofia-gossipcop --data <folder or file>.",
  },
  {
    name: "checkworthiness",
    title:
      "CLEF CheckThat! 2024 Task 1 (English): 24,851 sentences from US political debates and speeches, labelled check-worthy or not",
    purpose:
      "training the offline check-worthiness scorer (scripts/train-checkworthy.ts); bench checkworthy --data <folder>/CT24_checkworthy_english_dev-test.tsv",
    serves: ["checkworthiness"],
    licence: "none stated (the shared task's data as redistributed by a participating team's repository); research use",
    repo: "kta86/Prompting",
    commit: "05d08df83bc561a13c8881157d485e3206e87126",
    files: [
      {
        path: "CT24_checkworthy_english_train.tsv",
        from: "Data/CT24_checkworthy_english_train.tsv",
        bytes: 2434889,
        sha256: "e6a4b76c210dfd9eaaed917d29983ac8fe68cc99b29969677335639921d6df8f",

        copies: [
          {
            path: "train.jsonl",
            bytes: 4951177,
            sha256: "862df4634b5a59d8f495554eee20eea8879ff21a1240c9aeb982dfb2b0a8ae97",
            how: JSON_LINES_COPY,
          },
        ],
      },
      {
        path: "CT24_checkworthy_english_dev.tsv",
        from: "Data/CT24_checkworthy_english_dev.tsv",
        bytes: 103178,
        sha256: "693f75c07cb9f8ab00746e3cd7d447ebe676a00e3fd7bf317b1bd6544eaefa95",

        copies: [
          {
            path: "dev.jsonl",
            bytes: 216564,
            sha256: "7474b300893bd9401cf6b02d7b799f9195e8eb2900f06e51ae0726d9c3b638a6",
            how: JSON_LINES_COPY,
          },
        ],
      },
      {
        path: "CT24_checkworthy_english_dev-test.tsv",
        from: "Data/CT24_checkworthy_english_dev-test.tsv",
        bytes: 25196,
        sha256: "41aab60b5f06f3673e1263251a9e6e36f3dbc46a12e9c35cc816388201caa1d0",

        copies: [
          {
            path: "dev_test.jsonl",
            bytes: 61627,
            sha256: "7d31cc07041359d6211cf7ba0f6d04f815044e03aefc41d330b23ffa96ef92de",
            how: JSON_LINES_COPY,
          },
        ],
      },
    ],
  },
];

export function catalogueEntry(name: string): CatalogueEntry {
  const e = CATALOGUE.find((x) => x.name === name);
  if (!e)
    throw new Error(
      `There is no dataset named "${name}". The datasets: ${CATALOGUE.map((x) => x.name).join(", ")} (npx counterpoint dataset list).`,
    );
  return e;
}

/** The catalogue entry holding the data an importer (`eval --dataset`, a preset, `bench`) reads. */
export function entryServing(dataset: string): CatalogueEntry | undefined {
  return CATALOGUE.find((x) => x.serves.includes(dataset));
}

/** The address of a file at its source, with DATASETS_BASE_URL in place of the public host when set. */
export function sourceUrl(repo: string, commit: string, filePath: string, base = RAW_BASE_URL): string {
  return `${base.replace(/\/+$/, "")}/${repo}/${commit}/${filePath.split("/").map(encodeURIComponent).join("/")}`;
}
