import type { Metadata } from "next";
import localFont from "next/font/local";
import Link from "next/link";
import "./globals.css";
import { UserMenu } from "@/components/user-menu";

// Served from our own build: nothing is fetched from a font CDN at build or run time.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: { default: "Counterpoint", template: "%s · Counterpoint" },
  description: "Check claims with debating AI agents over evidence your newsroom controls.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" className={inter.variable}>
      <body className="min-h-screen font-sans antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="border-b border-black/10 bg-white">
          <nav className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3" aria-label="Main">
            <Link href="/" className="text-lg font-semibold tracking-tight">
              Counter<span className="text-accent">point</span>
            </Link>
            <Link href="/debates/new" className="text-sm text-black/70 hover:text-black">
              Check a claim
            </Link>
            <Link href="/debates" className="text-sm text-black/70 hover:text-black">
              Debates
            </Link>
            <Link href="/corpora" className="text-sm text-black/70 hover:text-black">
              Corpora
            </Link>
            <Link href="/search" className="text-sm text-black/70 hover:text-black">
              Search
            </Link>
            <Link href="/eval" className="text-sm text-black/70 hover:text-black">
              Evaluation
            </Link>
            <form action="/search" method="get" role="search" className="ml-auto flex min-w-0">
              <label htmlFor="nav-search" className="sr-only">
                Search passages
              </label>
              <input id="nav-search" name="q" type="search" placeholder="Search passages" className="w-36 min-w-0 rounded-md border border-black/20 bg-white px-2 py-1 text-sm sm:w-48" />
            </form>
            <Link href="/status" className="text-sm text-black/70 hover:text-black">
              System status
            </Link>
            <UserMenu />
          </nav>
        </header>
        <main id="main" className="mx-auto max-w-6xl px-4 py-8">
          {children}
        </main>
      </body>
    </html>
  );
}
