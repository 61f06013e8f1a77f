"""`cookingbot.ray` across two Ray nodes on this machine (`ray.cluster_utils.Cluster`: a head
and a second node, each its own raylet and object store, as two machines would be): scoring
spread over actors on both nodes gives the command line's CSV. Skipped when Ray is not
installed; 30 gold networks and 30 variants, and the cluster is shut down at the end."""

import subprocess
import sys

import pytest

ray = pytest.importorskip("ray", reason='Ray is not installed (pip install "cookingbot[ray]")')

from test_ray import ALL, _variant, hash_seed  # noqa: E402


@pytest.fixture(scope="module")
def two_nodes():
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False},
    )
    try:
        cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False)
        cluster.wait_for_nodes()
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def _node_scorer():
    import cookingbot.ray

    class NodeScorer(cookingbot.ray.Scorer):
        """The Scorer, each row marked with the node its actor ran on."""

        def __call__(self, batch):
            import pyarrow as pa

            table = super().__call__(batch)
            node = ray.get_runtime_context().get_node_id()
            return table.append_column("node", pa.array([node] * table.num_rows, type=pa.string()))

    return NodeScorer


def test_two_nodes_score_the_command_line_s_rows(two_nodes, command, benchmark, tmp_path):
    import cookingbot.ray

    gold = sorted((benchmark / "data" / "gold-standard-solutions" / "meaning-only").glob("*.solution"))
    folder = tmp_path / "networks"
    folder.mkdir()
    for g in gold:
        text = g.read_text()
        (folder / g.name).write_text(text)
        (folder / f"{g.stem}--0.solution").write_text(_variant(text, hash_seed(g.stem, 0)))
    cli = tmp_path / "cli.csv"
    run = subprocess.run(
        [command, "--input", str(folder), "--metrics", *ALL, "--benchmark", str(benchmark),
         "--offline", "-o", str(cli)],
        capture_output=True, text=True,
    )
    assert run.returncode in (0, 1), run.stderr
    assert len(ray.nodes()) == 2
    rows = [{"path": str(f)} for f in sorted(folder.glob("*.solution"))]
    scored = cookingbot.ray.score(
        ray.data.from_items(rows), benchmark=benchmark, concurrency=2, batch_size=6,
        scorer=_node_scorer(), scheduling_strategy="SPREAD",
    ).take_all()
    # One actor on each node: both scored rows.
    assert len({row["node"] for row in scored}) == 2
    assert cookingbot.ray.to_csv(scored) == cli.read_text()
