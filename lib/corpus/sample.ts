import type { DocumentInput, SourceRecord } from "./types";

/*
 * DEMO CORPUS. Every person, place, organisation and number below is invented for Counterpoint's
 * demo; none of it reports real events. It is written around SAMPLE_CLAIMS so that a new
 * installation can run a debate in one click, including a half-truth whose missing context
 * (a charity auction from years earlier) is only found by reading the corpus.
 */

export const SAMPLE_CORPUS_NAME = "demo";
export const SAMPLE_CORPUS_DESCRIPTION =
  "Demo corpus: short fictional news items written for Counterpoint (invented people and places, not real events).";

export type SampleClaim = {
  text: string;
  /** The verdict a careful fact-checker would reach from this corpus. */
  label: "TRUE" | "HALF-TRUE" | "FALSE";
  /** When the claim was made; evidence published later is not used. */
  claimDate: string;
  /** What the corpus shows, for the "try this claim" hint and for checking a debate's verdict. */
  note: string;
};

export const SAMPLE_CLAIMS: SampleClaim[] = [
  {
    text: "Governor Elena Marsh raised $2.4 million at a charity auction to help families as the Cedar River floods forced thousands from their homes.",
    label: "HALF-TRUE",
    claimDate: "2025-04-20",
    note: "Marsh did host an auction that raised $2.4 million, but in 2019, for a children's hospital wing; the flood relief fund created in 2025 has paid out $850,000.",
  },
  {
    text: "Unemployment in Harlow County fell below 4 percent by the end of 2024.",
    label: "TRUE",
    claimDate: "2025-02-10",
    note: "The county labour bulletin puts December 2024 unemployment at 3.7 percent, down from 4.6 percent a year earlier.",
  },
  {
    text: "Drivers now pay $15 every time they cross the new Tollgate Bridge.",
    label: "FALSE",
    claimDate: "2025-03-05",
    note: "Cars pay $3.50; $15 is the toll for trucks with five or more axles.",
  },
  {
    text: "Crime in Port Avery dropped by 30 percent last year.",
    label: "HALF-TRUE",
    claimDate: "2025-01-28",
    note: "Burglaries fell 30 percent, but total reported crime fell 4 percent and violent crime rose slightly.",
  },
];

type Item = { id: string; date: string; title: string; text: string };

const ITEMS: Item[] = [
  // Claim 1: the charity auction (2019) and the floods (2025).
  {
    id: "auction-2019",
    date: "2019-11-16",
    title: "Senator Marsh's gala auction raises $2.4 million for children's hospital",
    text: "A charity auction hosted by State Senator Elena Marsh raised $2.4 million on Saturday for a new paediatric wing at St. Brigid's Children's Hospital in Harlow. The money will pay for twelve treatment rooms and a family lodge where parents can stay during long hospital visits.",
  },
  {
    id: "auction-2019-items",
    date: "2019-11-17",
    title: "What sold at the St. Brigid's gala",
    text: "The top lot at Saturday's gala was a restored 1962 fishing boat, which sold for $310,000. Organisers said more than 600 guests attended and that every dollar raised would go to the hospital's building fund.",
  },
  {
    id: "hospital-wing-2021",
    date: "2021-06-03",
    title: "St. Brigid's opens paediatric wing funded by 2019 auction",
    text: "St. Brigid's Children's Hospital opened its new paediatric wing on Thursday. Hospital director Dr. Amara Quinn thanked donors to the 2019 gala auction organised by then-Senator Elena Marsh, which covered most of the construction cost.",
  },
  {
    id: "marsh-elected-2022",
    date: "2022-11-09",
    title: "Elena Marsh elected governor",
    text: "Former state senator Elena Marsh won the governor's race on Tuesday with 52 percent of the vote. She took office in January 2023.",
  },
  {
    id: "floods-2025",
    date: "2025-04-12",
    title: "Cedar River floods force 3,000 from their homes",
    text: "The Cedar River burst its banks after four days of heavy rain, flooding parts of Millbrook and Eastfield. Emergency officials said about 3,000 residents left their homes, and 400 houses were damaged.",
  },
  {
    id: "relief-fund-2025",
    date: "2025-04-15",
    title: "State opens flood relief fund",
    text: "Governor Elena Marsh announced the Cedar River Relief Fund on Tuesday, with an initial $1 million from the state's emergency reserve. Families whose homes were damaged can apply for grants of up to $5,000.",
  },
  {
    id: "relief-fund-update",
    date: "2025-04-30",
    title: "Flood relief fund has paid $850,000 so far",
    text: "The Cedar River Relief Fund has paid out $850,000 to 212 households, the governor's office said on Wednesday. Marsh also made a personal donation of $25,000 to the fund. No auction or gala has been held for flood victims.",
  },
  {
    id: "viral-photo-2025",
    date: "2025-04-19",
    title: "Photo of Marsh at gala shared as flood fundraiser",
    text: 'A photo of Governor Marsh at a gala podium spread widely online this week with the caption "Marsh raises $2.4 million for flood families." The photo was taken at the November 2019 hospital auction, more than five years before the floods.',
  },

  // Claim 2: unemployment in Harlow County.
  {
    id: "labour-bulletin-dec-2024",
    date: "2025-01-24",
    title: "Harlow County labour bulletin, December 2024",
    text: "Harlow County's unemployment rate was 3.7 percent in December 2024, according to the county labour office. That is down from 4.6 percent in December 2023 and the lowest year-end rate since 2007.",
  },
  {
    id: "labour-bulletin-jun-2024",
    date: "2024-07-22",
    title: "Harlow County jobless rate at 4.2 percent in June",
    text: "Unemployment in Harlow County stood at 4.2 percent in June 2024. Hiring at the Riverside logistics park accounted for about a third of the new jobs since January.",
  },
  {
    id: "labour-participation",
    date: "2025-01-30",
    title: "More Harlow residents looking for work",
    text: "The share of Harlow County adults who are working or looking for work rose to 63 percent in 2024, the labour office said. Economists noted the falling jobless rate was not caused by people leaving the workforce.",
  },
  {
    id: "factory-closure",
    date: "2024-03-14",
    title: "Glassworks to close Eastfield plant",
    text: "Cordell Glassworks will close its Eastfield plant in September, ending 180 jobs. The company said most workers would be offered positions at its larger site in Tillman, two counties away.",
  },

  // Claim 3: Tollgate Bridge tolls.
  {
    id: "bridge-opens",
    date: "2025-02-18",
    title: "Tollgate Bridge opens to traffic",
    text: "The Tollgate Bridge across Harlow Sound opened on Monday, cutting the drive from Port Avery to Millbrook by 25 minutes. Tolls are collected electronically in both directions.",
  },
  {
    id: "bridge-tolls",
    date: "2025-02-10",
    title: "Tollgate Bridge toll schedule approved",
    text: "The bridge authority approved the toll schedule on Friday. Passenger cars and motorcycles pay $3.50 per crossing. Trucks with two to four axles pay $8, and trucks with five or more axles pay $15.",
  },
  {
    id: "bridge-pass",
    date: "2025-02-12",
    title: "Commuter pass for Tollgate Bridge",
    text: "Drivers who cross often can buy a monthly commuter pass for $40, which covers unlimited crossings for one registered car. Seniors and people with disabilities get a 50 percent discount.",
  },
  {
    id: "bridge-cost",
    date: "2024-09-05",
    title: "Bridge finished on time, slightly over budget",
    text: "The Tollgate Bridge cost $412 million, about 6 percent more than the 2020 estimate, the bridge authority said. Tolls are expected to repay the construction bonds within 30 years.",
  },

  // Claim 4: crime in Port Avery.
  {
    id: "crime-report-2024",
    date: "2025-01-15",
    title: "Port Avery police release 2024 crime figures",
    text: "Total reported crime in Port Avery fell 4 percent in 2024, according to the police department's annual report. Burglaries dropped 30 percent after the department added night patrols in the harbour district.",
  },
  {
    id: "crime-violent",
    date: "2025-01-16",
    title: "Violent crime up slightly in Port Avery",
    text: "Violent crime in Port Avery rose 2 percent in 2024, driven by an increase in assaults downtown. Vehicle thefts were unchanged from the year before.",
  },
  {
    id: "crime-mayor",
    date: "2025-01-27",
    title: "Mayor credits patrols for burglary drop",
    text: "Mayor Tomas Reyes said on Monday that the night patrols were working, pointing to the 30 percent fall in burglaries. He did not mention the overall crime figures during his speech.",
  },
  {
    id: "crime-method",
    date: "2025-01-18",
    title: "How Port Avery counts crime",
    text: "Port Avery's annual report counts every offence reported to police, from shoplifting to homicide. Criminologist Dr. Lena Voss said a single category, such as burglary, can move sharply while the total barely changes.",
  },

  // Unrelated local news, so that retrieval has something to pass over.
  {
    id: "library-renovation",
    date: "2024-10-02",
    title: "Millbrook library reopens after renovation",
    text: "The Millbrook public library reopened on Saturday after a 14-month renovation. It now has a children's reading room, a maker space and longer weekend hours.",
  },
  {
    id: "harbour-festival",
    date: "2024-08-11",
    title: "Harbour festival draws record crowds",
    text: "About 45,000 people attended the Port Avery harbour festival over the weekend, organisers said. The tall-ship parade was cancelled on Sunday because of high winds.",
  },
  {
    id: "school-budget",
    date: "2024-05-21",
    title: "Harlow schools approve $96 million budget",
    text: "The Harlow school board approved a $96 million budget for the coming year, 3.1 percent more than last year. Most of the increase will go to teacher salaries and bus routes.",
  },
  {
    id: "water-rates",
    date: "2024-12-03",
    title: "Water rates to rise in Eastfield",
    text: "Eastfield households will pay about $4 more per month for water starting in March. The utility said the money would replace pipes installed in the 1950s.",
  },
  {
    id: "wind-farm",
    date: "2024-04-08",
    title: "Offshore wind farm gets final permit",
    text: "The Gull Shoals wind farm received its final permit on Monday. Developers say its 40 turbines could power about 120,000 homes when completed in 2028.",
  },
  {
    id: "ferry-service",
    date: "2025-03-01",
    title: "Ferry between Port Avery and Millbrook to end",
    text: "The passenger ferry between Port Avery and Millbrook will stop running in June, after ridership fell by half once the Tollgate Bridge opened.",
  },
  {
    id: "hospital-nurses",
    date: "2024-11-19",
    title: "St. Brigid's hires 40 nurses",
    text: "St. Brigid's Children's Hospital said it hired 40 nurses this year, mostly for the paediatric wing that opened in 2021. The hospital still has 15 open nursing positions.",
  },
  {
    id: "minimum-wage",
    date: "2024-12-30",
    title: "State minimum wage rises on January 1",
    text: "The state minimum wage will rise from $13.25 to $14.00 an hour on January 1. About 90,000 workers are expected to get a raise.",
  },
  {
    id: "flood-insurance",
    date: "2025-04-25",
    title: "Few flooded homes had flood insurance",
    text: "Only about one in five of the homes damaged by the Cedar River floods had flood insurance, according to the state insurance office. Standard homeowner policies do not cover flood damage.",
  },
  {
    id: "river-levee",
    date: "2023-08-14",
    title: "Cedar River levee upgrade postponed",
    text: "A planned upgrade of the Cedar River levee near Millbrook was postponed for lack of federal matching funds. Engineers had rated the levee in fair condition.",
  },
];

/**
 * The demo documents, each marked as fictional in its metadata. They have no source address: a
 * link to example.org looked like a real source and led nowhere. Evidence from them links to
 * nothing, and the document page says what they are.
 */
export function sampleDocuments(): DocumentInput[] {
  return ITEMS.map((it) => ({
    id: it.id,
    title: it.title,
    text: it.text,
    publishedAt: new Date(`${it.date}T12:00:00Z`),
    metadata: {
      demo: true,
      fictional: true,
      source: "fictional demo item written for Counterpoint; there is no original article",
    },
  }));
}

export async function* sampleRecords(): AsyncGenerator<SourceRecord> {
  for (const document of sampleDocuments()) yield { kind: "document", document };
}
