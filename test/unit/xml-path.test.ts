/**
 * The DOM-free reader of AWS query APIs' XML answers (shared/xml.ts `xmlPathText`), which the
 * tenant wall's AssumeRole reads STS's answer with (shared/adapters/sts-assume-role.ts).
 */
import { describe, expect, it } from 'vitest';
import { xmlPathText } from '../../shared/xml.js';

describe('the text at a path of an XML answer', () => {
  const doc = `<?xml version="1.0" encoding="UTF-8"?>
<!-- an answer -->
<r:Top xmlns:r="urn:x" a="1" b='2'>
  <Mid><Leaf>  one &amp; &lt;two&gt; &#65;&#x42; </Leaf><Empty/></Mid>
  <Leaf>not this one</Leaf>
  <Raw><![CDATA[<kept> & as is]]></Raw>
</r:Top>`;

  it('reads an element by its local names from the root, trimmed and with its entities decoded', () => {
    expect(xmlPathText(doc, ['Top', 'Mid', 'Leaf'])).toBe('one & <two> AB');
    expect(xmlPathText(doc, ['Top', 'Leaf'])).toBe('not this one');
    expect(xmlPathText(doc, ['Top', 'Raw'])).toBe('<kept> & as is');
    expect(xmlPathText(doc, ['Top', 'Mid', 'Empty'])).toBe('');
    expect(xmlPathText(doc, ['Top', 'Missing'])).toBeUndefined();
    expect(xmlPathText(doc, ['Other', 'Mid', 'Leaf'])).toBeUndefined();
  });

  it('refuses what is not well formed, and any DTD', () => {
    for (const bad of [
      '',
      '<a><b></a>',
      '<a>open',
      'text<a/>',
      '<a/><b/>',
      '<a>bare & amp</a>',
      '<a>1 < 2</a>',
      '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>',
    ])
      expect(() => xmlPathText(bad, ['a']), bad).toThrow();
  });
});
