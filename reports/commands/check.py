"""``boardlab check RUN``: verify a results folder, part by part, and say what is wrong.

Every part must be the one the manifest lists (size and sha256), carry the
run's identity (run id, run seed, configuration hash, chunk, table) and
hold its chunk's rows; files the manifest does not know and a writer at
work are reported. Exit code 0 when the folder is whole, 1 when a problem
was found (one line each, with what to do), 2 when RUN is no results folder.
"""


def add(sub):
    p = sub.add_parser("check", help="verify a results folder (checksums, run identity, rows)",
                       description="Check that every part of results folder RUN is the one its manifest "
                                   "lists (sha256, run identity, row count) and list what is wrong. "
                                   "Exit 0: whole; 1: problems found; 2: not a results folder.")
    p.add_argument("run_dir", help="results folder")
    p.add_argument("--quick", action="store_true",
                   help="sizes, identities and row counts only (do not read every part whole)")
    p.set_defaults(func=run, resumes=False)


def run(args):
    from simcore._check import check_folder

    problems, summary = check_folder(args.run_dir, checksums=not args.quick)
    for line in problems:
        print(f"problem: {line}")
    print(summary)
    return 1 if problems else 0
