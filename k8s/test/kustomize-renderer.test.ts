// The offline kustomize renderer: what it implements the way kustomize does, and what it refuses.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import {
  kustomizeNameHash,
  ManifestError,
  ManifestErrorCode,
  baseDir,
  defaultReferenceContext,
  podSpec,
  referenceFindings,
  renderKustomization,
} from '../src/index.js';
import { format, get } from './support/manifests.js';

describe('the offline kustomize renderer', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'felt-k8s-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (files: Record<string, string>): string => {
    const d = mkdtempSync(join(dir, 'case-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
    return d;
  };
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  LOG_LEVEL: info\n';

  it('refuses kustomize fields it does not implement rather than ignoring them', () => {
    const unsupported = expect.objectContaining({ code: ManifestErrorCode.UNSUPPORTED_KUSTOMIZE_FIELD }) as Error;
    for (const k of [
      'resources: [cm.yaml]\npatchesStrategicMerge: [p.yaml]\n',
      'resources: [cm.yaml]\nconfigMapGenerator:\n  - name: x\n    env: a.env\n',
      'resources: [cm.yaml]\nconfigMapGenerator:\n  - name: x\n    literals: [A=1]\n    options: { labelz: {} }\n',
      'resources: [cm.yaml]\npatches:\n  - target: { kind: ConfigMap, annotationSelector: a=b }\n    patch: "[]"\n',
    ]) {
      expect(() => renderKustomization(write({ 'kustomization.yaml': k, 'cm.yaml': cm })), k).toThrow(unsupported);
    }
    // A strategic-merge patch (a mapping, not a list of operations) is refused, not half-applied.
    const smp = write({
      'kustomization.yaml': 'resources: [cm.yaml]\npatches:\n  - path: p.yaml\n',
      'cm.yaml': cm,
      'p.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  A: b\n',
    });
    expect(() => renderKustomization(smp)).toThrow(unsupported);
  });

  it('applies JSON 6902 patches to their targets, and fails on a target that matches nothing', () => {
    const d = write({
      'kustomization.yaml': [
        'resources: [cm.yaml]',
        'patches:',
        '  - target: { kind: ConfigMap, name: c }',
        '    patch: |',
        '      - op: add',
        '        path: /data/NEW',
        '        value: x',
        '      - op: replace',
        '        path: /data/LOG_LEVEL',
        '        value: debug',
        '      - op: add',
        '        path: /metadata/labels',
        '        value: { a/b: c }',
        '  - target: { kind: ConfigMap, name: c }',
        '    path: ops.yaml',
      ].join('\n'),
      'cm.yaml': cm,
      'ops.yaml': '- op: remove\n  path: /data/NEW\n- op: add\n  path: /data/L\n  value: [1]\n',
    });
    const o = renderKustomization(d).objects[0]!.object;
    expect(o['data']).toEqual({ LOG_LEVEL: 'debug', L: [1] });
    expect(o.metadata.labels).toEqual({ 'a/b': 'c' });
    const none = write({
      'kustomization.yaml': 'resources: [cm.yaml]\npatches:\n  - target: { kind: Secret }\n    patch: "[]"\n',
      'cm.yaml': cm,
    });
    expect(() => renderKustomization(none)).toThrow(
      expect.objectContaining({ code: ManifestErrorCode.PATCH_FAILED }) as Error,
    );
    const bad = write({
      'kustomization.yaml':
        'resources: [cm.yaml]\npatches:\n  - target: { kind: ConfigMap }\n    patch: "[{op: replace, path: /data/NOPE, value: 1}]"\n',
      'cm.yaml': cm,
    });
    expect(() => renderKustomization(bad)).toThrow(/replace \/data\/NOPE on ConfigMap\/c: no value at \/data\/NOPE/);
  });

  it('generates hashed ConfigMaps, merges an overlay into them, and renames the pods’ references', () => {
    const root = write({});
    const d = (sub: string, files: Record<string, string>): void => {
      mkdirSync(join(root, sub), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(root, sub, name), text);
    };
    const pod = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: d }',
      'spec:',
      '  selector: { matchLabels: { a: b } }',
      '  template:',
      '    metadata: { labels: { a: b } }',
      '    spec:',
      '      containers:',
      '        - name: c',
      '          image: felt',
      '          envFrom: [{ configMapRef: { name: cfg } }]',
      '          env: [{ name: X, valueFrom: { configMapKeyRef: { name: cfg, key: A } } }]',
      '      volumes: [{ name: v, configMap: { name: cfg } }, { name: f, configMap: { name: files } }]',
    ].join('\n');
    d('base', {
      'kustomization.yaml': [
        'resources: [d.yaml]',
        'configMapGenerator:',
        '  - name: cfg',
        '    envs: [a.env]',
        '  - name: files',
        '    files: [dash.json, other=x.txt]',
        '    options: { disableNameSuffixHash: true, labels: { grafana_dashboard: "1" } }',
      ].join('\n'),
      'd.yaml': pod,
      'a.env': '# c\nA=1\nB=2\n',
      'dash.json': '{"uid":"x"}\n',
      'x.txt': 'hello',
    });
    d('ov', {
      'kustomization.yaml': [
        'resources: [../base]',
        'configMapGenerator:',
        '  - name: cfg',
        '    behavior: merge',
        '    literals: [B=3, C=4]',
      ].join('\n'),
    });
    const r = renderKustomization(join(root, 'ov'), { sourceRoot: root });
    const cfg = r.objects.find((o) => o.object.metadata.name.startsWith('cfg-'))!.object;
    expect(cfg['data']).toEqual({ A: '1', B: '3', C: '4' });
    expect(cfg.metadata.name).toBe(`cfg-${kustomizeNameHash({ ...cfg, metadata: { name: 'cfg' } })}`);
    const files = get('ConfigMap', 'files', r.objects);
    expect(files['data']).toEqual({ 'dash.json': '{"uid":"x"}\n', other: 'hello' });
    expect(files.metadata.labels).toEqual({ grafana_dashboard: '1' });
    const spec = podSpec(get('Deployment', 'd', r.objects))!;
    expect(spec.containers[0]!.envFrom?.[0]?.configMapRef?.name).toBe(cfg.metadata.name);
    expect(spec.containers[0]!.env?.[0]?.valueFrom?.configMapKeyRef?.name).toBe(cfg.metadata.name);
    expect(spec.volumes?.map((v) => v.configMap?.name)).toEqual([cfg.metadata.name, 'files']);
    // Rendering the base alone hashes its own content.
    const alone = renderKustomization(join(root, 'base'));
    expect(alone.objects.find((o) => o.object.metadata.name.startsWith('cfg-'))!.object.metadata.name).not.toBe(
      cfg.metadata.name,
    );
    // merge needs something to merge into; create refuses a duplicate.
    d('bad', {
      'kustomization.yaml': 'configMapGenerator:\n  - name: nope\n    behavior: merge\n    literals: [A=1]\n',
    });
    expect(() => renderKustomization(join(root, 'bad'))).toThrow(
      expect.objectContaining({ code: ManifestErrorCode.GENERATOR_CONFLICT }) as Error,
    );
    d('dup', {
      'kustomization.yaml': 'resources: [../base]\nconfigMapGenerator:\n  - name: cfg\n    literals: [A=1]\n',
    });
    expect(() => renderKustomization(join(root, 'dup'))).toThrow(
      expect.objectContaining({ code: ManifestErrorCode.GENERATOR_CONFLICT }) as Error,
    );
  });

  it('applies a component on top of what its kustomization has accumulated, and only as a component', () => {
    const root = write({});
    const d = (sub: string, files: Record<string, string>): void => {
      mkdirSync(join(root, sub), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(root, sub, name), text);
    };
    d('comp', {
      'kustomization.yaml': [
        'apiVersion: kustomize.config.k8s.io/v1alpha1',
        'kind: Component',
        'resources: [extra.yaml]',
        'patches:',
        '  - target: { kind: ConfigMap, name: c }',
        '    patch: "[{op: add, path: /data/FROM_COMPONENT, value: yes}]"',
      ].join('\n'),
      'extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n',
    });
    d('ov', {
      'kustomization.yaml': 'namespace: n\nresources: [cm.yaml]\ncomponents: [../comp]\n',
      'cm.yaml': cm,
    });
    const r = renderKustomization(join(root, 'ov'), { sourceRoot: root });
    expect(r.objects.map((o) => [o.source, o.object.metadata.namespace])).toEqual([
      ['ov/cm.yaml#0', 'n'],
      ['comp/extra.yaml#0', 'n'],
    ]);
    expect(get('ConfigMap', 'c', r.objects)['data']).toEqual({ LOG_LEVEL: 'info', FROM_COMPONENT: 'yes' });
    d('wrong', { 'kustomization.yaml': 'resources: [../comp]\n' });
    expect(() => renderKustomization(join(root, 'wrong'))).toThrow(
      /a kind: Component can only be listed under components/,
    );
    d('notcomp', { 'kustomization.yaml': 'resources: []\n' });
    d('wrong2', { 'kustomization.yaml': 'components: [../notcomp]\n' });
    expect(() => renderKustomization(join(root, 'wrong2'))).toThrow(
      /listed under components but is not a kind: Component/,
    );
  });

  it('reports YAML files the kustomization does not list', () => {
    const d = write({ 'kustomization.yaml': 'resources: [cm.yaml]\n', 'cm.yaml': cm, 'forgotten.yaml': cm });
    expect(renderKustomization(d).unlistedFiles).toEqual(['forgotten.yaml']);
  });

  it('fails on invalid YAML with the file and document named', () => {
    const d = write({ 'kustomization.yaml': 'resources: [cm.yaml]\n', 'cm.yaml': `${cm}---\nkind: [unclosed\n` });
    let caught: unknown;
    try {
      renderKustomization(d);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ManifestError);
    expect((caught as ManifestError).code).toBe(ManifestErrorCode.YAML_PARSE);
    expect((caught as ManifestError).file).toBe('cm.yaml#1');
  });

  it('renders a base directory first, then applies the overlay on top, naming sources from the root', () => {
    const root = write({});
    const d = (sub: string, files: Record<string, string>): void => {
      mkdirSync(join(root, sub), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(root, sub, name), text);
    };
    d('base', {
      'kustomization.yaml': 'namespace: a\nresources: [cm.yaml]\nimages:\n  - name: felt\n    newTag: "1"\n',
      'cm.yaml': cm,
      'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: []\n',
    });
    d('ov', { 'kustomization.yaml': 'namespace: b\nresources: [../base]\n' });
    const r = renderKustomization(join(root, 'ov'), { sourceRoot: root });
    expect(r.objects.map((o) => [o.source, o.object.metadata.namespace])).toEqual([['base/cm.yaml#0', 'b']]);
    expect(r.unlistedFiles).toEqual(['base/pod.yaml']);
  });

  it('the base alone lacks the Secret its workloads need: deploy an overlay', () => {
    const alone = renderKustomization(baseDir);
    expect(alone.objects.some((o) => o.object.kind === 'Secret')).toBe(false);
    expect(format(referenceFindings(alone.objects, defaultReferenceContext()))).toContain(
      'table-worker.yaml#0 StatefulSet/felt-table-worker: container "table-worker" env DATABASE_URL names missing Secret key felt-secrets/DATABASE_URL',
    );
  });

  it('applies namespace, secretGenerator and image overrides the way kustomize does', () => {
    const d = write({
      'kustomization.yaml': [
        'namespace: ns1',
        'resources: [cm.yaml, pod.yaml]',
        'secretGenerator:',
        '  - name: s',
        '    envs: [s.env]',
        '    literals: [EXTRA=x=y]',
        'generatorOptions:',
        '  disableNameSuffixHash: true',
        'images:',
        '  - name: felt',
        '    newName: registry.example.com:5000/felt',
        '    newTag: "2.0"',
      ].join('\n'),
      'cm.yaml': cm,
      'pod.yaml':
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: a\n      image: felt:1.0\n',
      's.env': '# comment\n\nDATABASE_URL=postgresql://u@h/db?x=1\n',
    });
    const r = renderKustomization(d);
    expect(r.objects.map((o) => o.object.metadata.namespace)).toEqual(['ns1', 'ns1', 'ns1']);
    expect(get('Pod', 'p', r.objects)['spec']).toMatchObject({
      containers: [{ image: 'registry.example.com:5000/felt:2.0' }],
    });
    const data = (get('Secret', 's', r.objects) as unknown as ISecret).data ?? {};
    expect(Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]))).toEqual({
      DATABASE_URL: 'postgresql://u@h/db?x=1',
      EXTRA: 'x=y',
    });
  });
});
