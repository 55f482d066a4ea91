/**
 * The words of a prompt that can tell one memory from another. A prompt is mostly the language
 * around its subject ("can you look at …", "thanks, now …"): those words are rare in a team's
 * memory, so recall's idf weighs them high, yet sharing one says nothing about fit. What is left
 * once English's common words are gone — names, identifiers, the trade's terms ("lint",
 * "webhook", "Kysely") — is what a hit must share to be injected unasked (relevance.ts); and
 * what recall asks any hit to hold one of (query.ts `rankedQuery`, cairn_recall_for).
 */

/**
 * Common English (function words, the most frequent verbs, nouns and adjectives), what people
 * say to a coding agent around a request, and the verbs of a request itself (fix, run, update,
 * review). The trade's nouns (test, build, deploy, error, lint, database) are not here: they are
 * what memories are about, and recall's idf weighs them.
 */
const REQUEST = `
a about above across actually after again against ago ahead all almost along already also although always am
among an and another any anybody anyone anything anyway anywhere are around as ask asked asking at away
back bad be became because become been before began begin behind being below best better between big bit
both bring brought but by call called came can cannot can't case certain change changed changes clear
clearer come comes coming could couldn't current currently day days did didn't different do does doesn't
doing done don't down during each early easy either else end enough even ever every everyone everything
example exactly except fact far feel felt few find fine first follow following for found from full gave get
gets getting give given go goes going gone good got great had hadn't half hand happen happened happens has
hasn't have haven't having he hello help her here hers hey hi high him his how however i i'd if i'll i'm
important in instead into is isn't it its it's itself i've just keep kept kind know known last later least
left less let let's like likely line little long look looked looking looks lot lots made main make makes
making many may maybe me mean means might mind mine minute minutes more most mostly much must my myself name
near need needed needs never new next nice no none nor not nothing now number of off often oh ok okay old on
once one only onto or other others otherwise our ours out over own part perfect perhaps place please point
possible pretty probably put quick quickly quite rather really reason right said same saw say says second
see seem seems seen set several shall she should shouldn't show shown side simple since small so some
someone something sometimes soon sorry start started still stuff such suggest suppose sure take taken takes
tell than thank thanks that that's the their theirs them themselves then there there's these they they're
thing things think this those though thought three through thus time times to today together told too took
top toward try trying turn two under understand until up upon us use used uses using usual usually very want
wanted wants was wasn't way ways we week well went were weren't what what's whatever when where whether which
while who whole whom whose why will with within without won't work worked working works would wouldn't wrong
yeah year years yes yet you your yours yourself
continue proceed again redo undo retry lgtm awesome cool nice excellent alright hmm
able across add added adding answer anybody asap attempt basically begin bunch cause create created creating
different done easier explain explained fix fixed fixing fixes go goal guess help here idea ideas improve
instead issue issues kind latest let maybe mention move nothing ones opinion option options 
others person plan problem problems question questions ready real reason remove removed replace review run
running runs save seem small somehow speed step steps still suggestion summarize summary sure task tasks
thing try update updated view whatever word words write writing wrote yourself
`;

/**
 * Everyday life and time: said around a coding request ("thanks, back from lunch"), so no sign
 * that an entry fits one; yet what a personal memory is about ("what books has Melanie read?").
 */
const EVERYDAY = `
read reads reading book books story life family friend friends child children kid kids people person man
woman men women girl boy mother father parent parents home house school student teacher game games
play played playing music song movie film art sport sports food dinner lunch city country world travel
trip vacation holiday birthday party weekend morning evening night month months today tomorrow yesterday
favorite favourite love loved enjoy enjoyed hope feel feeling fun happy sad interesting excited whole
common collect collected career company business buy bought sell sold market lost win won
share shared meet met visit visited join joined learn learned teach taught talk talked speak told friend
reason began become believe bring carry choose close cover decide describe develop draw
drive during eat else entire especially everyone fall family far feel fight finally free front grow
hear hold hour hours human idea keep kind known large late lead least leave light live local longer
lose matter mean member moment mother near nearly often open past pick plan power present probably public
quite rest rise room sense serious short sign simply sit social someone stand stay stop story strong
talk team thus toward true turn usually various walk watch white wide wish wonder word young
support supported style styles launch launched item items community related relate goal goals
manage managed management kind skill skills prepare prepared consider considered mention mentioned
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
`;

const setOf = (text: string) => new Set(text.split(/\s+/).filter(Boolean));
let common: Set<string> | undefined;
let request: Set<string> | undefined;
const commonWords = () => {
  common ??= setOf(`${REQUEST} ${EVERYDAY}`);
  return common;
};
const requestWords = () => {
  request ??= setOf(REQUEST);
  return request;
};

/**
 * A word's stem, roughly: enough that "migrations" meets "migration" and "retries" "retry". An
 * identifier or path (anything but letters) is kept whole.
 */
export function stem(word: string): string {
  if (word.length <= 4 || (!/^[a-z]+$/.test(word) && /[^\p{L}]/u.test(word))) return word;
  for (const [suffix, keep] of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3)
      return word.slice(0, word.length - suffix.length) + keep;
  }
  return word;
}
const SUFFIXES: [string, string][] = [
  ['ations', 'ate'],
  ['ation', 'ate'],
  ['ings', ''],
  ['ing', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['sses', 'ss'],
  ['es', 'e'],
  ['ed', ''],
  ['s', ''],
];

/**
 * A word and a camelCase boundary. Letters and digits are Unicode's; for a text of ASCII alone
 * the same classes written in ASCII find the same words, and cost no 3 ms to compile at a
 * hook's first prompt (a Unicode class is a table of hundreds of ranges).
 */
const UNICODE = {
  token: /[\p{L}\p{N}][\p{L}\p{N}_./:@#-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu,
  camel: /(\p{Ll})(\p{Lu})/gu,
};
/** A word with nothing to split: letters and digits, a capital at most at its start. */
const SIMPLE = /^[A-Z]?[a-z0-9]*$/;
const ASCII = { token: /[A-Za-z0-9][A-Za-z0-9_./:@#-]*[A-Za-z0-9]|[A-Za-z0-9]/g, camel: /([a-z])([A-Z])/g };
/** The classes that find a text's words: ASCII's for a text of ASCII alone. */
const classesFor = (text: string) => (/^[\u0000-\u007f]*$/.test(text) ? ASCII : UNICODE);

/**
 * The words of a text, lower-cased: identifiers, paths and URLs split at punctuation and at
 * camelCase, each whole identifier kept too ("src/orders/db.ts" gives src, orders, db, ts and
 * the whole; "RecordTooLarge" gives record, too, large and the whole).
 */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  const { token: tokens, camel } = classesFor(text);
  for (const token of text.match(tokens) ?? []) {
    // most words have nothing to split: no punctuation inside, no capital after a small letter
    if (SIMPLE.test(token)) {
      out.push(token.toLowerCase());
      continue;
    }
    const parts = token
      .replace(camel, '$1 $2')
      .split(/[\s_./:@#-]+/)
      .filter(Boolean);
    for (const p of parts) out.push(p.toLowerCase());
    if (parts.length > 1) out.push(token.toLowerCase());
  }
  return out;
}

/**
 * The prompt's telling words, stemmed: its words less common English, less one- and two-letter
 * words and short numbers (a version like "18" or a "v2" says little alone).
 */
export function tellingTerms(prompt: string): string[] {
  return [...new Set(wordsLess(prompt, commonWords()).map(stem))];
}

/**
 * The prompt's telling words as it writes them, each once: its words and identifiers, whole,
 * less common English, one- and two-letter words and short numbers (what recall says no hit
 * mentions, cairn_recall_for).
 */
export function tellingWords(prompt: string): string[] {
  const common = commonWords();
  // "weren't" is no word "weren", nor "Stripe's" one "stripe's"
  const text = prompt.replace(/\b[a-z]+n['’]t\b/gi, ' ').replace(/['’](s|re|ve|ll|d|m)\b/gi, '');
  const words = (text.match(classesFor(text).token) ?? []).map((t) => t.toLowerCase());
  return [...new Set(words.filter((w) => tells(w, common)))];
}

/**
 * The words of a question an entry must hold one of to answer it (recall's evidence,
 * cairn_recall_for), as written: as tellingTerms, but everyday words count — "book" says nothing
 * of a coding prompt, yet "what books has Melanie read?" asks about books.
 */
export function evidenceWords(query: string): string[] {
  return wordsLess(query, requestWords());
}

/** A text's words less `words`, less one- and two-letter words and short numbers; each once. */
function wordsLess(text: string, words: Set<string>): string[] {
  return [...new Set(wordsOf(text).filter((w) => tells(w, words)))];
}

/** Whether a word tells, against `words` that do not: not one of them, nor one or two letters, nor a short number. */
function tells(w: string, words: Set<string>): boolean {
  return w.length >= 3 && !/^\d{1,3}$/.test(w) && !words.has(w) && !words.has(stem(w));
}
