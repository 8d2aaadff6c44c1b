import { S3Error } from './s3-error.ts';

/**
 * Just enough XML for S3: answers are built from strings, and the only documents we read
 * (CompleteMultipartUpload, Delete) are small and flat, so a tiny strict parser is enough
 * and keeps the endpoint free of an XML dependency.
 */

export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function escapeXml(value: string): string {
  return value.replace(/[&<>"'\r\n\t]/g, (ch) => {
    switch (ch) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case "'":
        return '&apos;';
      case '\r':
        return '&#13;';
      case '\n':
        return '&#10;';
      default:
        return '&#9;';
    }
  });
}

/** One element with escaped text; omitted entirely when the value is undefined. */
export function textElement(name: string, value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** One element around already-built children. */
export function element(name: string, children: string | string[]): string {
  return `<${name}>${Array.isArray(children) ? children.join('') : children}</${name}>`;
}

/** The root element of an answer, in the S3 namespace unless namespaced = false (error documents). */
export function xmlRoot(root: string, children: string | string[], namespaced = true): string {
  const open = namespaced ? `<${root} xmlns="${S3_NAMESPACE}">` : `<${root}>`;
  return `${open}${Array.isArray(children) ? children.join('') : children}</${root}>`;
}

/** A whole answer document: declaration plus root element. */
export function xmlDocument(root: string, children: string | string[], namespaced = true): string {
  return XML_DECLARATION + xmlRoot(root, children, namespaced);
}

export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

export function childText(parent: XmlElement, name: string): string | undefined {
  return parent.children.find((child) => child.name === name)?.text;
}

function malformed(): S3Error {
  return new S3Error('MalformedXML');
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_match, entity: string) => {
    switch (entity) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default: {
        const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
        if (!Number.isFinite(code) || code > 0x10ffff) throw malformed();
        return String.fromCodePoint(code);
      }
    }
  });
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

/** Parses a document into its root element; anything not well-formed is MalformedXML. */
export function parseXml(source: string): XmlElement {
  let pos = 0;
  const skipMisc = (): void => {
    for (;;) {
      while (pos < source.length && /\s/.test(source[pos] ?? '')) pos += 1;
      if (source.startsWith('<?', pos)) {
        const end = source.indexOf('?>', pos);
        if (end === -1) throw malformed();
        pos = end + 2;
      } else if (source.startsWith('<!--', pos)) {
        const end = source.indexOf('-->', pos);
        if (end === -1) throw malformed();
        pos = end + 3;
      } else {
        return;
      }
    }
  };

  const parseElement = (depth: number): XmlElement => {
    if (depth > 32 || source[pos] !== '<') throw malformed();
    const tag = /^<([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(source.slice(pos, pos + 4096));
    if (!tag) throw malformed();
    const name = tag[1] ?? '';
    pos += tag[0].length;
    const node: XmlElement = { name: localName(name), children: [], text: '' };
    if (tag[3] === '/') return node;
    let text = '';
    for (;;) {
      if (pos >= source.length) throw malformed();
      if (source.startsWith('</', pos)) {
        const close = /^<\/([A-Za-z_][\w.:-]*)\s*>/.exec(source.slice(pos, pos + 4096));
        if (!close || close[1] !== name) throw malformed();
        pos += close[0].length;
        node.text = node.children.length === 0 ? decodeEntities(text) : '';
        return node;
      }
      if (source.startsWith('<!--', pos)) {
        const end = source.indexOf('-->', pos);
        if (end === -1) throw malformed();
        pos = end + 3;
      } else if (source.startsWith('<![CDATA[', pos)) {
        const end = source.indexOf(']]>', pos);
        if (end === -1) throw malformed();
        text += source
          .slice(pos + 9, end)
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;');
        pos = end + 3;
      } else if (source[pos] === '<') {
        node.children.push(parseElement(depth + 1));
      } else {
        const next = source.indexOf('<', pos);
        if (next === -1) throw malformed();
        text += source.slice(pos, next);
        pos = next;
      }
    }
  };

  skipMisc();
  const root = parseElement(0);
  skipMisc();
  if (pos !== source.length) throw malformed();
  return root;
}
