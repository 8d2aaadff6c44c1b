import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../src/domain/validation.ts';
import { NameFields } from '../../src/ui/name-fields.tsx';

describe('name fields (issue 12)', () => {
  const field = (error?: string) => ({ value: '', onChange: () => undefined, onBlur: () => undefined, error });
  it('shows the shared name-required message once, under the pair', () => {
    const html = renderToStaticMarkup(createElement(NameFields, { first: field(FIELD_MESSAGES.nameRequired), last: field(FIELD_MESSAGES.nameRequired) }));
    expect(html.split(FIELD_MESSAGES.nameRequired)).toHaveLength(2);
    expect(html.match(/aria-invalid="true"/g)).toHaveLength(2);
  });
  it('keeps a message of one field under that field', () => {
    const html = renderToStaticMarkup(createElement(NameFields, { first: field(), last: field(FIELD_MESSAGES.nameTooLong) }));
    expect(html.split(FIELD_MESSAGES.nameTooLong)).toHaveLength(2);
    expect(html.match(/aria-invalid="true"/g)).toHaveLength(1);
  });
});
