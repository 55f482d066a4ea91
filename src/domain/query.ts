/**
 * Query expansion for recall: English stemming maps "painting" to "paint" but not "went" to
 * "go". Each irregular verb form in a question brings its other forms along, so "Where did she
 * go?" also finds "She went to Paris". Done before the query reaches the database, so the
 * expansion is identical on every database.
 */
const IRREGULAR = `arise arose arisen|awake awoke awoken|bear bore born borne|beat beaten|become became
begin began begun|bend bent|bet|bind bound|bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred
bring brought|build built|burn burnt|buy bought|catch caught|choose chose chosen|come came|cost|creep crept|cut
deal dealt|dig dug|draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten
fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden
forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|give gave given|go went gone
grind ground|grow grew grown|hang hung|hear heard|hide hid hidden|hit|hold held|hurt|keep kept|kneel knelt
know knew known|lay laid|lead led|lean leant|leap leapt|learn learnt|leave left|lend lent|let|lie lay lain|light lit
lose lost|make made|mean meant|meet met|pay paid|put|quit|read|ride rode ridden|ring rang rung|rise rose risen
run ran|say said|see saw seen|seek sought|sell sold|send sent|set|shake shook shaken|shine shone|shoot shot
show showed shown|shrink shrank shrunk|shut|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid
speak spoke spoken|spend spent|spin spun|split|spread|spring sprang sprung|stand stood|steal stole stolen|stick stuck
sting stung|stink stank stunk|strike struck|swear swore sworn|sweep swept|swim swam swum|swing swung|take took taken
teach taught|tear tore torn|tell told|think thought|throw threw thrown|understand understood|wake woke woken
wear wore worn|weave wove woven|weep wept|win won|wind wound|write wrote written`;

let forms: Map<string, string[]> | undefined;

/** Each form → the other forms of its verb; built on first use. */
function irregularForms(): Map<string, string[]> {
  if (!forms) {
    forms = new Map();
    for (const group of IRREGULAR.split(/[|\n]/)) {
      const all = group.trim().split(/\s+/);
      for (const f of all) forms.set(f, [...(forms.get(f) ?? []), ...all.filter((x) => x !== f)]);
    }
  }
  return forms;
}

/** The query with the other forms of its irregular verbs appended (nothing is removed). */
export function expandQuery(query: string): string {
  const words: string[] = query.toLowerCase().match(/[a-z]+/g) ?? [];
  const extra = new Set<string>();
  for (const w of words) for (const f of irregularForms().get(w) ?? []) if (!words.includes(f)) extra.add(f);
  return extra.size ? `${query} ${[...extra].join(' ')}` : query;
}
