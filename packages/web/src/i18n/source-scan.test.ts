// No text for people is written in the code: it is all in the catalog. This reads every source file
// of the app with the TypeScript parser and fails on
//   - JSX text with a letter in it (`<p>Loading</p>`),
//   - a user-facing attribute (aria-label, title, placeholder, alt, label, hint, ...) given a string
//     with a letter (`aria-label="Close"`, `title={`Seat ${n}`}`),
//   - any other string or template anywhere that reads like words for people: two words with a space
//     between them, or one Capitalised word (`'Waiting for players'`, `` `${name} wins` ``, `'Fold'`),
//     outside the attributes that only the page reads (className, data-*, type, ...).
// Strings that are code, not text (a media query, an error for developers), are listed below by
// value. The rendered check beside it (ui/zh-render.test.tsx) catches what this cannot see: a text
// built from data at run time.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Where text for people may be written: the catalogs themselves. Tests and fixtures are not the app. */
const EXEMPT = [/^i18n\/(en|zh-CN)\.ts$/, /\.test\.tsx?$/, /^test-support\//];

/** Attributes whose value people read or hear. */
const USER_FACING_ATTRS = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'aria-placeholder',
  'title',
  'placeholder',
  'alt',
  'label',
  'hint',
  'summary',
]);

/** Attributes only the page reads: their strings are code (class names, ids, types, test hooks). */
const CODE_ATTRS = new Set([
  'className',
  'id',
  'htmlFor',
  'type',
  'role',
  'href',
  'rel',
  'target',
  'download',
  'inputMode',
  'autoComplete',
  'pattern',
  'lang',
  'name',
  'value',
  'key',
  'variant',
  'size',
  'step',
  'list',
  'i18nKey',
]);

/** Strings that read like words but are code, by exact value. */
const CODE_STRINGS = new Set([
  // A media query and a key name.
  '(prefers-reduced-motion: reduce)',
  'Enter',
  // Developer errors: never shown to a player.
  'index.html has no #root',
]);

const HAS_LETTER = /[A-Za-z]/;
const PROSE = /[A-Za-z]{2,}[,.:;!?'’)]*\s+[(']?[A-Za-z]{2,}/;
const CAPITALISED_WORD = /^\s*[A-Z][a-z]+[.!?…]?\s*$/;

/** A word standing alone between a template's substitutions (`${name} wins ${n}`). */
const LONE_WORD = /\s[A-Za-z]{2,}[,.:;!?]*(\s|$)|(^|\s)[A-Za-z]{2,}[,.:;!?]*\s/;

function looksLikeText(text: string, inTemplate: boolean): boolean {
  if (CODE_STRINGS.has(text)) return false;
  return PROSE.test(text) || CAPITALISED_WORD.test(text) || (inTemplate && LONE_WORD.test(text));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name: string) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

interface Finding {
  readonly where: string;
  readonly text: string;
  readonly rule: string;
}

/** The JSX attribute a string is (somewhere) in the value of, or null. */
function attributeName(node: ts.Node): string | null {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isJsxAttribute(n)) return n.name.getText();
    if (ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isJsxFragment(n)) return null;
  }
  return null;
}

/** Literal parts of a string or template node (a template's substitutions are code). */
function literalParts(node: ts.Node): string[] | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
  return null;
}

/** The functions that take a catalog key first: the key is code, its text is in the catalog. */
const TRANSLATORS = new Set(['t', 'tr', 'translate']);

/** A string that is (one of the choices of) the key argument of `t(...)`. */
function isCatalogKey(node: ts.Node): boolean {
  let n: ts.Node = node;
  while (ts.isConditionalExpression(n.parent) || ts.isParenthesizedExpression(n.parent)) {
    if (ts.isConditionalExpression(n.parent) && n.parent.condition === n) return false;
    n = n.parent;
  }
  const call = n.parent;
  if (!ts.isCallExpression(call) || call.arguments[0] !== n) return false;
  const callee = call.expression;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  return TRANSLATORS.has(name);
}

/** A string used as an object's property name (`{ 'big blind': ... }`): a key, not a text. */
function isPropertyName(node: ts.Node): boolean {
  const p = node.parent;
  return ts.isPropertyAssignment(p) && p.name === node;
}

function isModuleSpecifier(node: ts.Node): boolean {
  const p = node.parent as ts.Node | undefined;
  if (p === undefined) return false;
  if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return p.moduleSpecifier === node;
  return ts.isExternalModuleReference(p) || ts.isImportTypeNode(p) || ts.isLiteralTypeNode(p);
}

function insideNewError(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isNewExpression(n) && /Error$/.test(n.expression.getText())) return true;
    if (ts.isBlock(n) || ts.isSourceFile(n)) return false;
  }
  return false;
}

export function scan(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const at = (node: ts.Node): string => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    return `${file}:${line + 1}`;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      const text = node.text.trim();
      if (HAS_LETTER.test(text)) findings.push({ where: at(node), text, rule: 'JSX text' });
    } else {
      const parts = literalParts(node);
      if (parts !== null && isCatalogKey(node)) {
        // A key is dotted words (`lobby.title`, `game.name.${game}`); anything else is a text in disguise.
        if (!parts.every((p) => /^[\w.]*$/.test(p))) {
          findings.push({ where: at(node), text: parts.join('…'), rule: 'key' });
        }
      } else if (parts !== null && !isModuleSpecifier(node) && !insideNewError(node) && !isPropertyName(node)) {
        const attr = attributeName(node);
        const whole = parts.join('…');
        if (attr !== null && USER_FACING_ATTRS.has(attr)) {
          if (parts.some((p) => HAS_LETTER.test(p))) findings.push({ where: at(node), text: whole, rule: attr });
        } else if (!(attr !== null && (CODE_ATTRS.has(attr) || attr.startsWith('data-') || attr.startsWith('aria-')))) {
          const inTemplate = ts.isTemplateExpression(node);
          if (parts.some((p) => looksLikeText(p, inTemplate))) {
            findings.push({ where: at(node), text: whole, rule: 'text in code' });
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

const files = sourceFiles(SRC)
  .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
  .filter((f) => !EXEMPT.some((re) => re.test(f)));

describe('text for people is only in the catalog', () => {
  it('reads the app’s sources', () => {
    expect(files).toContain('ui/table-screen.tsx');
    expect(files).toContain('lib/error-text.ts');
    expect(files.length).toBeGreaterThan(25);
  });

  it('finds no hard-coded text in any of them', () => {
    const findings = files.flatMap((f) => scan(f, readFileSync(path.join(SRC, f), 'utf8')));
    expect(findings.map((f) => `${f.where} [${f.rule}] ${JSON.stringify(f.text)}`)).toEqual([]);
  });

  it('would catch each kind of hard-coded text', () => {
    const found = (code: string): string[] => scan('probe.tsx', code).map((f) => f.rule);
    expect(found('const a = <p>Loading tables</p>;')).toEqual(['JSX text']);
    expect(found('const a = <p>{`Seat ${n}`}</p>;')).toEqual(['text in code']);
    expect(found('const a = <p>{ok ? "Fold" : t("x.y")}</p>;')).toEqual(['text in code']);
    expect(found('const a = <button aria-label="Close" />;')).toEqual(['aria-label']);
    expect(found('const a = <span title={`Pot ${n}`} />;')).toEqual(['title']);
    expect(found('const a = <Field label="Game" />;')).toEqual(['label']);
    expect(found('const a = <input placeholder="6 digits" />;')).toEqual(['placeholder']);
    expect(found('const a = <Thing caption="Hello there" />;')).toEqual(['text in code']);
    expect(found("const line = 'Waiting for players';")).toEqual(['text in code']);
    expect(found('const line = `${name} wins ${amount}`;')).toEqual(['text in code']);
    expect(found("toasts.show('Seated.');")).toEqual(['text in code']);
    // Code stays code.
    expect(found('const a = <p className="btn btn--ghost" data-testid="x">{t("lobby.title")}</p>;')).toEqual([]);
    expect(found("import { x } from './some module';")).toEqual([]);
    expect(found("if (e.key === 'Enter') go(); const k = 'table.hero.watching'; const s = 'seat--empty';")).toEqual([]);
    expect(found("throw new Error('index has no root element');")).toEqual([]);
    expect(found("const a = <b title={t(big ? 'felt.board' : 'felt.boardEmpty')} />;")).toEqual([]);
    expect(found("const a = <b title={t(big ? 'Big board' : 'felt.boardEmpty')} />;")).toEqual(['key']);
  });
});
