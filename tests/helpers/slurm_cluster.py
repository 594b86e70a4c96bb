"""
A real one-node Slurm cluster on this machine, for the tests of the Slurm executor: Debian's
slurm-wlm (slurmctld, slurmd), slurmdbd over a MariaDB of its own (job states come from `sacct`, as
on any cluster with accounting, which submitit reads), and munge. Everything lives in one folder:
configs, state, logs, the database; the daemons listen on ports of their own, so the machine's own
services (if any) are left alone. Needs root (the daemons run as root here) and the Debian packages
`slurm-wlm slurmdbd munge mariadb-server`; `unavailable()` says why a cluster cannot start.

    cluster = LocalSlurmCluster(tmp_path / "slurm", cpus=2)
    cluster.start()               # about 15 s
    environment = cluster.environment()   # SLURM_CONF for sbatch, squeue, sacct, submitit
    cluster.stop()
"""

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Dict, List, Optional

BINARIES = (
    "slurmctld",
    "slurmd",
    "slurmdbd",
    "sbatch",
    "sacct",
    "sacctmgr",
    "munged",
    "mariadbd",
    "mariadb-install-db",
)
PARTITION = "suite"


def unavailable() -> Optional[str]:
    """Why a local cluster cannot start here, or None."""
    missing = [name for name in BINARIES if shutil.which(name) is None]
    if missing:
        return (
            f"Slurm is not installed ({', '.join(missing)} missing): apt-get install slurm-wlm slurmdbd munge "
            "mariadb-server (.ci/run does)"
        )
    if os.geteuid() != 0:
        return "the local Slurm cluster's daemons run as root, and these tests do not"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalSlurmCluster:
    def __init__(self, root: Path, cpus: int = 2, memory_mb: int = 8000) -> None:
        self.root = root
        self.cpus, self.memory_mb = cpus, memory_mb
        self.host = socket.gethostname()
        self.ports = {name: _free_port() for name in ("mariadb", "slurmdbd", "slurmctld", "slurmd")}
        self.processes: List[subprocess.Popen] = []

    def environment(self) -> Dict[str, str]:
        return {**os.environ, "SLURM_CONF": str(self.root / "slurm.conf")}

    def start(self) -> None:
        for folder in ("db", "state", "spool", "log", "run"):
            (self.root / folder).mkdir(parents=True, exist_ok=True)
        self._munge()
        self._database()
        self._write_configs()
        self._daemon(["slurmdbd", "-D"], "slurmdbd")  # reads slurmdbd.conf beside SLURM_CONF
        self._wait(lambda: self._listening(self.ports["slurmdbd"]), "slurmdbd to listen")
        self._slurm("sacctmgr", "-i", "add", "cluster", "suite", check=False)
        self._daemon(["slurmctld", "-D", "-f", str(self.root / "slurm.conf")], "slurmctld")
        self._daemon(["slurmd", "-D", "-f", str(self.root / "slurm.conf")], "slurmd")
        self._wait(lambda: "idle" in self._slurm("sinfo", "-h", "-o", "%t", check=False), "the node to be idle")

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in reversed(self.processes):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        self.processes = []

    def jobs_submitted(self) -> List[str]:
        """Every job the cluster has run or holds, by id (sacct, all states)."""
        output = self._slurm("sacct", "-X", "-n", "-P", "-o", "JobID", "-S", "2000-01-01", check=False)
        return [line for line in output.split() if line]

    def set_partition(self, state: str) -> None:
        """'UP' runs jobs; 'DOWN' keeps new ones pending, as a busy cluster does."""
        self._slurm("scontrol", "update", f"PartitionName={PARTITION}", f"State={state}")

    def _slurm(self, *command: str, check: bool = True) -> str:
        result = subprocess.run(command, env=self.environment(), capture_output=True, text=True, timeout=60)
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stderr}")
        return result.stdout

    @staticmethod
    def _munge_works() -> bool:
        return subprocess.run("munge -n | unmunge", shell=True, capture_output=True).returncode == 0

    def _munge(self) -> None:
        if self._munge_works():
            return
        if not Path("/etc/munge/munge.key").is_file():
            subprocess.run(["mungekey", "-c"], check=True, capture_output=True)
        Path("/run/munge").mkdir(parents=True, exist_ok=True)
        shutil.chown("/run/munge", "munge", "munge")
        subprocess.run(["munged", "--force"], check=True, capture_output=True)
        self._wait(
            lambda: subprocess.run("munge -n | unmunge", shell=True, capture_output=True).returncode == 0, "munge"
        )

    def _database(self) -> None:
        data = self.root / "db"
        if not (data / "mysql").is_dir():
            subprocess.run(
                ["mariadb-install-db", "--user=root", f"--datadir={data}", "--auth-root-authentication-method=normal"],
                check=True,
                capture_output=True,
            )
        socket_path = self.root / "run" / "mariadb.sock"
        self._daemon(
            [
                "mariadbd",
                "--user=root",
                f"--datadir={data}",
                f"--socket={socket_path}",
                f"--port={self.ports['mariadb']}",
                "--bind-address=127.0.0.1",
                f"--pid-file={self.root / 'run' / 'mariadb.pid'}",
                "--innodb-buffer-pool-size=16M",
            ],
            "mariadb",
        )
        self._wait(lambda: socket_path.exists() and self._listening(self.ports["mariadb"]), "MariaDB to listen")
        grant = (
            "CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'slurm';"
            "CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'slurm';"
            "GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';"
            "GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"
        )
        subprocess.run(["mariadb", f"--socket={socket_path}", "-uroot", "-e", grant], check=True, capture_output=True)

    def _write_configs(self) -> None:
        root = self.root
        (root / "slurmdbd.conf").write_text(
            "\n".join(
                [
                    "AuthType=auth/munge",
                    "DbdHost=localhost",
                    f"DbdPort={self.ports['slurmdbd']}",
                    "SlurmUser=root",
                    f"LogFile={root / 'log' / 'slurmdbd.log'}",
                    f"PidFile={root / 'run' / 'slurmdbd.pid'}",
                    "StorageType=accounting_storage/mysql",
                    "StorageHost=127.0.0.1",
                    f"StoragePort={self.ports['mariadb']}",
                    "StorageUser=slurm",
                    "StoragePass=slurm",
                    "StorageLoc=slurm_acct_db",
                ]
            )
            + "\n"
        )
        os.chmod(root / "slurmdbd.conf", 0o600)
        (root / "slurm.conf").write_text(
            "\n".join(
                [
                    "ClusterName=suite",
                    f"SlurmctldHost={self.host}",
                    "SlurmUser=root",
                    "SlurmdUser=root",
                    "AuthType=auth/munge",
                    f"SlurmctldPort={self.ports['slurmctld']}",
                    f"SlurmdPort={self.ports['slurmd']}",
                    f"StateSaveLocation={root / 'state'}",
                    f"SlurmdSpoolDir={root / 'spool'}",
                    f"SlurmctldPidFile={root / 'run' / 'slurmctld.pid'}",
                    f"SlurmdPidFile={root / 'run' / 'slurmd.pid'}",
                    f"SlurmctldLogFile={root / 'log' / 'slurmctld.log'}",
                    f"SlurmdLogFile={root / 'log' / 'slurmd.log'}",
                    "ProctrackType=proctrack/linuxproc",
                    "TaskPlugin=task/none",
                    "MpiDefault=none",
                    "SchedulerType=sched/backfill",
                    "SelectType=select/cons_tres",
                    "SelectTypeParameters=CR_CPU",
                    "ReturnToService=2",
                    "JobRequeue=1",
                    "AccountingStorageType=accounting_storage/slurmdbd",
                    "AccountingStorageHost=localhost",
                    f"AccountingStoragePort={self.ports['slurmdbd']}",
                    "JobAcctGatherType=jobacct_gather/none",
                    "MinJobAge=3600",
                    "KillWait=10",
                    "OverTimeLimit=0",
                    "InactiveLimit=0",
                    f"NodeName={self.host} CPUs={self.cpus} RealMemory={self.memory_mb} State=UNKNOWN",
                    f"PartitionName={PARTITION} Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
                ]
            )
            + "\n"
        )

    def _daemon(self, command: List[str], name: str) -> None:
        log = open(self.root / "log" / f"{name}.out", "ab")
        self.processes.append(subprocess.Popen(command, stdout=log, stderr=log, env=self.environment()))

    def _listening(self, port: int) -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    def _wait(self, ready, what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():
                return
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"waiting for {what}: {process.args[0]} exited; logs in {self.root / 'log'}")
            time.sleep(0.5)
        raise RuntimeError(f"waited {timeout:.0f} s for {what}; logs in {self.root / 'log'}")
