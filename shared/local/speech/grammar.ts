/**
 * The words the offline recogniser may hear. A JSGF grammar that allows any sequence of these words
 * keeps pocketsphinx 0.8 from drifting into rhymes of the security words ("north fence" heard as
 * "north hands" with the general language model). Measured on flite voices (slt, kal16), five
 * sentences: the grammar kept nearly every keyword and the word order; keyword spotting (-kws) lost
 * order and fired on words never said (boat, drone, north); the general model lost gate and fence.
 *
 * Every word must be in pocketsphinx's en-us dictionary (cmudict), all lowercase.
 */
export const SECURITY_WORDS: readonly string[] = [
  // what and who
  'person', 'people', 'man', 'men', 'woman', 'someone', 'group', 'intruder', 'intruders', 'guard',
  'vehicle', 'vehicles', 'car', 'cars', 'truck', 'van', 'motorbike', 'bike', 'drone', 'boat',
  'fire', 'smoke', 'alarm', 'weapon', 'gun', 'knife', 'package', 'bag', 'dog', 'animal',
  // where
  'gate', 'fence', 'door', 'wall', 'window', 'roof', 'entrance', 'exit', 'parking', 'lot',
  'building', 'perimeter', 'camera', 'road', 'yard', 'dock', 'warehouse', 'office', 'lobby',
  'north', 'south', 'east', 'west', 'northern', 'southern', 'eastern', 'western', 'side', 'corner',
  // how
  'suspicious', 'unknown', 'broken', 'open', 'damaged', 'armed', 'running', 'walking', 'climbing',
  'flying', 'parked', 'driving', 'hiding', 'loitering', 'breaking', 'entering', 'leaving', 'fighting',
  'injured', 'urgent', 'emergency', 'black', 'white', 'red', 'blue', 'dark',
  // numbers and time
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'minutes', 'minute', 'hour', 'ago', 'now', 'just', 'tonight', 'morning', 'evening',
  // glue
  'there', 'is', 'are', 'was', 'were', 'has', 'have', 'been', 'a', 'an', 'the', 'at', 'near', 'by',
  'on', 'in', 'of', 'to', 'from', 'over', 'under', 'behind', 'inside', 'outside', 'and', 'with',
  'i', 'we', 'see', 'saw', 'seen', 'report', 'reporting', 'it', 'they', 'he', 'she', 'this', 'that',
];

/** A JSGF grammar: one or more of the words, in any order. */
export function securityGrammar(words: readonly string[] = SECURITY_WORDS): string {
  const alternatives = [...new Set(words.map((w) => w.toLowerCase()))].join(' | ');
  return ['#JSGF V1.0;', 'grammar security;', 'public <report> = <word>+;', `<word> = ${alternatives};`, ''].join('\n');
}
