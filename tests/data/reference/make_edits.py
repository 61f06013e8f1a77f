#!/usr/bin/env python3
"""Write the edit scripts of tests/data/reference/ from the reference's solution files.

Usage: make_edits.py REFERENCE_DIR BENCHMARK_2024 BENCHMARK_2023

Every solution file under REFERENCE_DIR/<profile>/{perturbed,edge}/ was made by editing gold
networks of the benchmark. The benchmark's networks stay out of the project, so each file is
kept as `<name>.solution.edit`: which gold files it starts from and, line by line, which of
their lines it keeps (renaming variables, adding a carriage return) and which lines it adds.
tests/common/mod.rs rebuilds the files from the benchmark data; this script checks that the
rebuilt bytes equal the originals before it writes anything.
"""
import json, os, re, sys

GOLD = 'data/gold-standard-solutions/meaning-only'
TOKEN = re.compile(r'[^\s()]+')


def rename(line, names):
    return TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), line)


def lines(path):
    with open(path, newline='') as f:
        return f.read().split('\n')


def var_map(src, tgt):
    """The variable renaming that turns many source lines into target lines, if any."""
    names = {}
    for s, t in zip(src, tgt):
        ss, ts = TOKEN.findall(s), TOKEN.findall(t)
        if len(ss) != len(ts) or TOKEN.sub('', s) != TOKEN.sub('', t):
            continue
        for a, b in zip(ss, ts):
            if a != b and a.startswith('?') and b.startswith('?'):
                if names.setdefault(a, b) != b:
                    return {}
    return names


def apply(script, data_root):
    sources, names, out = {}, {}, []
    for op in script:
        if op[0] == 'from':
            sources[op[1]] = lines(os.path.join(data_root, op[2]))
        elif op[0] == 'rename':
            names[op[1]] = op[2]
        elif op[0] == 'copy':
            _, src, first, last, cr = op
            out += [rename(l, names) + cr for l in sources[src][first - 1:last]]
        else:
            out.append(op[1])
    return '\n'.join(out)


def encode(target, gold_ids, data_root):
    sources = [(str(i + 1), f'{GOLD}/{g}.solution') for i, g in enumerate(gold_ids)]
    src_lines = {k: lines(os.path.join(data_root, p)) for k, p in sources}
    def indexed(names):
        index = {}
        for k, _ in sources:
            for n, l in enumerate(src_lines[k], 1):
                index.setdefault(rename(l, names), (k, n))
        return index

    # Rename variables only when that keeps more lines than it loses.
    names = var_map(src_lines['1'], target)
    if sum(t in indexed(names) for t in target) <= sum(t in indexed({}) for t in target):
        names = {}
    index = indexed(names)
    script = [('from', k, p) for k, p in sources]
    script += [('rename', a, b) for a, b in sorted(names.items())]
    for t in target:
        cr = ''
        hit = index.get(t)
        if hit is None and t.endswith('\r'):
            hit, cr = index.get(t[:-1]), '\r'
        if hit is None:
            script.append(('add', t))
            continue
        last = script[-1]
        if last[0] == 'copy' and last[1] == hit[0] and last[3] + 1 == hit[1] and last[4] == cr:
            script[-1] = ('copy', last[1], last[2], hit[1], cr)
        else:
            script.append(('copy', hit[0], hit[1], hit[1], cr))
    return script


def write(script):
    out = []
    for op in script:
        if op[0] == 'from':
            out.append(f'from {op[1]} {op[2]}')
        elif op[0] == 'rename':
            out.append(f'rename {op[1]} {op[2]}')
        elif op[0] == 'copy':
            span = f'{op[2]}' if op[2] == op[3] else f'{op[2]}-{op[3]}'
            out.append(f'copy {op[1]} {span}' + (' cr' if op[4] else ''))
        else:
            out.append('add ' + json.dumps(op[1], ensure_ascii=False))
    return '\n'.join(out) + '\n'


def main(reference, b2024, b2023):
    roots = {'2024': b2024, '2023': b2023}
    here = os.path.dirname(os.path.abspath(__file__))
    for profile, root in roots.items():
        ids = sorted(f[:-len('.solution')] for f in os.listdir(os.path.join(root, GOLD)))
        for kind in ('perturbed', 'edge'):
            folder = os.path.join(reference, profile, kind)
            if not os.path.isdir(folder):
                continue
            os.makedirs(os.path.join(here, profile, kind), exist_ok=True)
            for name in sorted(os.listdir(folder)):
                with open(os.path.join(folder, name), newline='') as f:
                    text = f.read()
                # The gold file sharing the most lines with this one is where it starts.
                target = set(text.replace('\r', '').split('\n'))
                first = max(ids, key=lambda i: (len(target & set(lines(os.path.join(root, GOLD, i + '.solution')))), i == name.split('--')[0]))
                # Other recipes a file holds (two-recipes cases) are further sources.
                headers = [h.strip().lstrip('#').split()[0].lower() for h in text.split('\n') if h.startswith('#') and h.strip() != '#']
                gold = [first] + [h for h in headers if h in ids and h != first]
                script = encode(text.split('\n'), gold, root)
                if apply(script, root) != text:
                    sys.exit(f'{profile}/{kind}/{name}: the edit script does not rebuild the file')
                with open(os.path.join(here, profile, kind, name + '.edit'), 'w') as f:
                    f.write(write(script))


if __name__ == '__main__':
    main(*sys.argv[1:])
