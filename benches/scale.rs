//! Scale benchmarks (plain harness: criterion's statistics are not worth its compile time on
//! a shared two-core machine). Prints one line per measurement with its median.
//!
//! `cargo bench --bench scale -- [--clusters 1000,10000] [--placements 100,1000]
//!  [--only selector,placement,replicas,load,plan,karmada,kubefleet,diff] [--runs 3]`
//!
//! `karmada` plans genfleet's Karmada mix: as many Deployments as `--placements` names.
//! `kubefleet` plans `--clusters` MemberClusters and `--placements` ClusterResourcePlacements
//! of every placement type (`kubefleet_generator.rs`); issue 30's target is 10k × 10k in 2 s:
//! `just bench --clusters 10000 --placements 10000 --only kubefleet`.
//! `diff` renders `fleetplan diff`'s text between two plans of `--placements` Placements over
//! `--clusters` clusters each (plans made here, nothing is loaded).
//!
//! Inputs come from the same generator as `genfleet`, written once per size to a temporary
//! directory and read back through `fleetplan::load`, as `fleetplan plan -f DIR` reads them.

mod generator;
mod kubefleet_generator;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use fleetplan::{
    build, load, parse_replica_set_preferences, schedule, ClusterBits, ClusterIndex, LabelIndex,
    LabelTable, LoadOptions, Model, ObjectRef, PlacementInput, Plan, PlanItem, PlanOptions,
    PlannerInput, Scheduler, Selector, Trace, WorkloadKind,
};
use generator::{ClusterKind, Mix, Shape};

/// The selector the targets name: three requirements, each a different operator.
const SELECTOR: &str = "region in (us-east,eu-west,ap-south),provider notin (aws),env=prod";
const PLANS_PER_SAMPLE: usize = 100_000;
/// 2026-01-02T00:00:00Z: after the generated taints were added.
const NOW: i64 = 1_767_312_000;

struct Args {
    clusters: Vec<usize>,
    placements: Vec<usize>,
    only: Vec<String>,
    runs: usize,
}

impl Args {
    fn wants(&self, group: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|only| only == group)
    }
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        clusters: vec![1000, 10_000],
        placements: vec![100, 1000],
        only: Vec::new(),
        runs: 3,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--clusters" => args.clusters = numbers(&value()?)?,
            "--placements" => args.placements = numbers(&value()?)?,
            "--only" => args.only = value()?.split(',').map(str::to_string).collect(),
            "--runs" => args.runs = numbers(&value()?)?.first().copied().unwrap_or(1).max(1),
            // `cargo bench` passes `--bench` to every harness-less benchmark.
            "--bench" => {}
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(args)
}

fn numbers(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(|n| {
            n.trim()
                .parse()
                .map_err(|_| format!("expected whole numbers, found {n:?}"))
        })
        .collect()
}

/// Time this thread spent on a CPU: the machine is shared, so wall time would mostly measure
/// the neighbours. Wall time where the thread's CPU clock is not available.
#[derive(Clone, Copy)]
enum Clock {
    Cpu(Duration),
    Wall(Instant),
}

/// `clock_gettime`'s clocks: this thread's CPU time, and the whole process's (every thread).
const THREAD_CPU: i32 = 3;
const PROCESS_CPU: i32 = 2;

#[cfg(target_os = "linux")]
fn cpu_time(clock: i32) -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    let mut time = Timespec {
        seconds: 0,
        nanoseconds: 0,
    };
    // SAFETY: `time` is a valid, writable timespec for the duration of the call.
    let status = unsafe { clock_gettime(clock, &mut time) };
    (status == 0).then(|| {
        Duration::new(
            u64::try_from(time.seconds).unwrap_or(0),
            u32::try_from(time.nanoseconds).unwrap_or(0),
        )
    })
}

/// Elsewhere the clocks are not read, and times fall back to wall time.
#[cfg(not(target_os = "linux"))]
fn cpu_time(_clock: i32) -> Option<Duration> {
    None
}

impl Clock {
    fn now() -> Clock {
        cpu_time(THREAD_CPU).map_or_else(|| Clock::Wall(Instant::now()), Clock::Cpu)
    }

    fn elapsed(self) -> Duration {
        match (self, Clock::now()) {
            (Clock::Cpu(start), Clock::Cpu(end)) => end.saturating_sub(start),
            (Clock::Wall(start), _) | (_, Clock::Wall(start)) => start.elapsed(),
        }
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

/// Median over `runs` runs of `f`. What `f` returns is freed after the clock stops: the
/// `plan` command leaves its model to the process exit, so freeing is not part of the work.
fn runs<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let start = Clock::now();
                let made = black_box(f());
                let elapsed = start.elapsed();
                drop(made);
                elapsed
            })
            .collect(),
    )
}

/// Median time of one call of a fast `f`: batches of calls of at least a millisecond each,
/// 21 batches.
fn per_call<T>(mut f: impl FnMut() -> T) -> Duration {
    let mut batch = 1u32;
    loop {
        let start = Clock::now();
        for _ in 0..batch {
            black_box(f());
        }
        if start.elapsed() >= Duration::from_millis(1) || batch >= 1 << 20 {
            break;
        }
        batch *= 2;
    }
    let samples = (0..21)
        .map(|_| {
            let start = Clock::now();
            for _ in 0..batch {
                black_box(f());
            }
            start.elapsed() / batch
        })
        .collect();
    median(samples)
}

fn ms(duration: Duration) -> String {
    format!("{:.4} ms", duration.as_secs_f64() * 1e3)
}

fn report(group: &str, size: &str, what: &str, value: String) {
    println!("{group:<10} {size:<18} {what:<34} {value}");
}

/// Writes the generated inputs once per size, as JSON and as YAML.
/// The formats the `load` group reads: the ClusterInventory as JSON and as YAML, and the
/// same clusters as one JSON List of ManagedClusters.
const FORMATS: [(&str, &str, ClusterKind); 3] = [
    ("json", "json", ClusterKind::Inventory),
    ("yaml", "yaml", ClusterKind::Inventory),
    ("managedcluster-json", "json", ClusterKind::ManagedCluster),
];

/// Writes the generated inputs once per size, in each of [`FORMATS`].
fn inputs(clusters: usize, placements: usize) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir()
        .join("fleetplan-bench")
        .join(format!("{clusters}x{placements}"));
    for (name, format, clusters_as) in FORMATS {
        let (fleet, workloads) = generator::generate(&Shape {
            clusters,
            placements,
            // Placements only, as in the end-to-end target: a `*` RSP over 100k clusters
            // lists every cluster in the plan, which measures the JSON writer.
            replica_workloads: 0,
            karmada_workloads: 0,
            policies: 0,
            seed: 1,
            clusters_as,
            mix: Mix::Default,
        });
        generator::write_dir(&dir.join(name), format, &fleet, &workloads)?;
    }
    Ok(dir)
}

/// The Karmada mix: Karmada Clusters, `workloads` Deployments and a PropagationPolicy per
/// ten of them, as JSON.
fn karmada_inputs(clusters: usize, workloads: usize) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir()
        .join("fleetplan-bench")
        .join(format!("{clusters}x{workloads}"))
        .join("karmada-json");
    let (fleet, workloads) = generator::generate(&Shape {
        clusters,
        placements: 0,
        replica_workloads: 0,
        karmada_workloads: workloads,
        policies: 0,
        seed: 1,
        clusters_as: ClusterKind::Karmada,
        mix: Mix::Default,
    });
    generator::write_dir(&dir, "json", &fleet, &workloads)?;
    Ok(dir)
}

/// The KubeFleet mix: MemberClusters (heartbeats 30 s before `NOW`, 2% past the timeout) and
/// ClusterResourcePlacements, as JSON.
fn kubefleet_inputs(clusters: usize, placements: usize) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir()
        .join("fleetplan-bench")
        .join(format!("{clusters}x{placements}"))
        .join("kubefleet-json");
    let (fleet, workloads) = kubefleet_generator::generate(
        clusters,
        placements,
        kubefleet_generator::HEARTBEAT,
        kubefleet_generator::STALE,
    );
    generator::write_dir(&dir, "json", &fleet, &workloads)?;
    Ok(dir)
}

fn load_dir(dir: &Path) -> Result<Model, String> {
    load(
        &[dir.display().to_string()],
        &mut std::io::empty(),
        &LoadOptions::default(),
    )
    .map_err(|errors| format!("{}: {errors:?}", dir.display()))
}

fn selector_bench(model: &Model, size: &str) -> Result<(), String> {
    let clusters = &model.inventory.clusters;
    let selector = Selector::parse(SELECTOR).map_err(|e| e.to_string())?;
    let build = runs(3, || LabelIndex::new(clusters, |c| &c.labels));
    report("selector", size, "index build", ms(build));
    let index = LabelIndex::new(clusters, |c| &c.labels);
    let indexed = per_call(|| index.select(&selector));
    let per_cluster = per_call(|| {
        ClusterBits::from_ids(
            clusters.len(),
            clusters
                .iter()
                .enumerate()
                .filter(|(_, c)| selector.matches(&c.labels))
                .map(|(id, _)| id),
        )
    });
    let table_build = runs(3, || LabelTable::new(clusters.iter().map(|c| &c.labels)));
    let resolved = index.table().resolve(selector.clone());
    let per_table = per_call(|| {
        ClusterBits::from_ids(
            clusters.len(),
            (0..clusters.len()).filter(|&id| resolved.matches(id)),
        )
    });
    if index.select(&selector)
        != ClusterBits::from_ids(
            clusters.len(),
            (0..clusters.len()).filter(|&id| resolved.matches(id)),
        )
        || index.select(&selector)
            != ClusterBits::from_ids(
                clusters.len(),
                (0..clusters.len()).filter(|&id| selector.matches(&clusters[id].labels)),
            )
    {
        return Err("indexed and per-cluster selection differ".to_string());
    }
    report("selector", size, "3 requirements, indexed", ms(indexed));
    report(
        "selector",
        size,
        "3 requirements, per cluster",
        ms(per_cluster),
    );
    report("selector", size, "label table build", ms(table_build));
    report(
        "selector",
        size,
        "3 requirements, per cluster, label table",
        ms(per_table),
    );
    report(
        "selector",
        size,
        "per cluster / indexed",
        format!(
            "{:.0}x",
            per_cluster.as_secs_f64() / indexed.as_secs_f64().max(1e-12)
        ),
    );
    Ok(())
}

fn placement_bench(model: &Model, size: &str, count: usize) {
    let build = runs(3, || {
        let clusters = ClusterIndex::new(&model.inventory.clusters);
        Scheduler::new(&clusters, &model.inventory, &model.decisions);
    });
    report("placement", size, "fleet index build", ms(build));
    let clusters = ClusterIndex::new(&model.inventory.clusters);
    let scheduler = Scheduler::new(&clusters, &model.inventory, &model.decisions);
    let placements: Vec<_> = model
        .workloads
        .iter()
        .filter_map(|workload| match &workload.kind {
            WorkloadKind::Placement(spec) => Some((workload, spec)),
            _ => None,
        })
        .collect();
    let all = runs(count, || {
        placements
            .iter()
            .map(|(workload, spec)| {
                schedule(&PlacementInput {
                    scheduler: &scheduler,
                    namespace: workload.object.namespace.as_deref().unwrap_or("default"),
                    name: &workload.object.name,
                    spec,
                    now: NOW,
                    trace: false,
                    enforce_spread: false,
                })
                .selected
                .len()
            })
            .sum::<usize>()
    });
    report("placement", size, "schedule every placement", ms(all));
    report(
        "placement",
        size,
        "per placement",
        ms(all / placements.len().max(1) as u32),
    );
}

fn replicas_bench() -> Result<(), String> {
    let preferences = parse_replica_set_preferences(
        r#"{"rebalance": true, "clusters": {"*": {"weight": 1}, "c-1": {"weight": 3, "maxReplicas": 40}}}"#,
    )
    .map_err(|e| e.to_string())?;
    let names: Vec<String> = (0..10).map(|i| format!("c-{i}")).collect();
    let available: Vec<&str> = names.iter().map(String::as_str).collect();
    let capacity: BTreeMap<String, i64> = [("c-2".to_string(), 15)].into();
    let current = BTreeMap::new();
    let keys: Vec<String> = (0..64).map(|i| format!("team-{i:02}/app")).collect();
    let sample = || {
        let start = Clock::now();
        for i in 0..PLANS_PER_SAMPLE {
            let plan = fleetplan::plan_replicas(&PlannerInput {
                total: 10 + (i % 500) as i64,
                key: &keys[i % keys.len()],
                preferences: &preferences,
                available: &available,
                current: &current,
                capacity: &capacity,
            });
            black_box(plan);
        }
        start.elapsed()
    };
    let time = median((0..11).map(|_| sample()).collect());
    report(
        "replicas",
        "10 clusters",
        "plans per second (one core)",
        format!("{:.0}", PLANS_PER_SAMPLE as f64 / time.as_secs_f64()),
    );
    Ok(())
}

/// What `fleetplan plan -o json` does, on every core: wall time is the figure the targets
/// name, and the process's CPU time (all threads) shows how much of it the machine lent.
fn plan_bench(group: &str, dir: &Path, size: &str, count: usize) -> Result<(), String> {
    let mut samples = EveryCore::default();
    for _ in 0..count {
        let start = EveryCore::start();
        let model = load_dir(dir)?;
        let outcome = build(&model, &PlanOptions::at(NOW, Trace::Plan));
        black_box(fleetplan::plan_json(&outcome.plan).map_err(|e| e.to_string())?);
        samples.stop(start);
        // Freed after the clocks stop, as `runs` does.
        drop(outcome);
        drop(model);
    }
    samples.report(group, size, "load json + plan + render json");
    Ok(())
}

/// `fleetplan diff`'s text output (the change set, then the unified diff of the two plans'
/// YAML) between a plan of `items` Placements over `clusters` clusters each and: the same
/// items each on half other clusters; the same with a new item after each one (plan order
/// interleaves them); the same with as many new items in one run, in the middle of the plan.
fn diff_bench(clusters: usize, items: usize, count: usize) -> Result<(), String> {
    let size = format!("{items} items x {clusters}");
    // Teams of ten apps named alike, as fleets name them: no item's namespace or name is a
    // line found once in the plan.
    let names = |team: String, suffix: &'static str| {
        (0..items).map(move |n| {
            (
                format!("team-{:04}{team}", n / 10),
                format!("app-{}{suffix}", n % 10),
            )
        })
    };
    let previous = generated_plan(names(String::new(), ""), clusters, 0);
    let changed = generated_plan(names(String::new(), ""), clusters, clusters / 2);
    let interleaved = generated_plan(
        names(String::new(), "").chain(names(String::new(), "-canary")),
        clusters,
        0,
    );
    let middle = format!("-{:04}", items / 20);
    let in_one_run = generated_plan(
        names(String::new(), "").chain(names(middle, "")),
        clusters,
        0,
    );
    let cases = [
        ("every item changed", &changed),
        ("as many added, interleaved", &interleaved),
        ("as many added, in one run", &in_one_run),
    ];
    for (what, current) in cases {
        let mut samples = EveryCore::default();
        for _ in 0..count {
            let start = EveryCore::start();
            let changes = fleetplan::compare(&previous, current);
            let text = fleetplan::diff_text(&changes, &previous, current, false)
                .map_err(|e| e.to_string())?;
            samples.stop(start);
            black_box(text);
        }
        samples.report("diff", &size, &format!("text, {what}"));
    }
    Ok(())
}

/// A plan of Placements named `names` (namespace, name), in plan order, each selecting
/// `clusters` clusters from the `shift`th on.
fn generated_plan(
    names: impl Iterator<Item = (String, String)>,
    clusters: usize,
    shift: usize,
) -> Plan {
    let mut items: Vec<PlanItem> = names
        .map(|(namespace, name)| PlanItem {
            source: ObjectRef {
                api_version: "cluster.open-cluster-management.io/v1beta1".to_string(),
                kind: "Placement".to_string(),
                namespace: Some(namespace),
                name,
            },
            clusters: (shift..shift + clusters)
                .map(|c| format!("cluster-{c:05}"))
                .collect::<Vec<_>>()
                .into(),
            ..PlanItem::default()
        })
        .collect();
    items.sort_by(|a, b| a.source.cmp(&b.source));
    Plan {
        items,
        ..Plan::default()
    }
}

/// Samples of work done on every core: wall time, and the process's CPU time (all threads).
#[derive(Default)]
struct EveryCore {
    walls: Vec<Duration>,
    cpus: Vec<Duration>,
}

impl EveryCore {
    fn start() -> (Instant, Option<Duration>) {
        (Instant::now(), cpu_time(PROCESS_CPU))
    }

    fn stop(&mut self, (wall, cpu): (Instant, Option<Duration>)) {
        self.walls.push(wall.elapsed());
        if let (Some(start), Some(end)) = (cpu, cpu_time(PROCESS_CPU)) {
            self.cpus.push(end.saturating_sub(start));
        }
    }

    /// The medians.
    fn report(self, group: &str, size: &str, what: &str) {
        report(
            group,
            size,
            &format!("{what} (wall)"),
            ms(median(self.walls)),
        );
        if !self.cpus.is_empty() {
            report(group, size, &format!("{what} (cpu)"), ms(median(self.cpus)));
        }
    }
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    if args.wants("replicas") {
        replicas_bench()?;
    }
    for &clusters in &args.clusters {
        for &placements in &args.placements {
            let size = format!("{clusters}x{placements}");
            let dir = inputs(clusters, placements)?;
            let model = load_dir(&dir.join("json"))?;
            if args.wants("selector") && placements == args.placements[0] {
                selector_bench(&model, &format!("{clusters}"))?;
            }
            if args.wants("placement") {
                placement_bench(&model, &size, args.runs);
            }
            drop(model);
            if args.wants("load") {
                for (name, _, _) in FORMATS {
                    let time = runs(args.runs, || load_dir(&dir.join(name)));
                    report("load", &size, name, ms(time));
                }
            }
            if args.wants("plan") {
                plan_bench("plan", &dir.join("json"), &size, args.runs)?;
            }
            if args.wants("karmada") {
                let dir = karmada_inputs(clusters, placements)?;
                plan_bench("karmada", &dir, &size, args.runs)?;
            }
            if args.wants("kubefleet") {
                let dir = kubefleet_inputs(clusters, placements)?;
                plan_bench("kubefleet", &dir, &size, args.runs)?;
            }
            if args.wants("diff") {
                diff_bench(clusters, placements, args.runs)?;
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scale: {message}");
            ExitCode::FAILURE
        }
    }
}
