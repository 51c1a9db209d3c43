
use builtin;
use str;

set edit:completion:arg-completer[fleetplan] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'fleetplan'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'fleetplan'= {
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand plan 'Plan every workload: selected clusters, replica layouts, decisions and conditions'
            cand explain 'Explain one item cluster by cluster: why each was or was not chosen, with scores'
            cand select 'List the clusters of an inventory that match label and claim selectors'
            cand diff 'Compare the plan with a previous one (exit 0 no change, 2 changes, 1 error)'
            cand check 'Validate every input and plan everything (exit 0 clean, 1 errors, 3 unsatisfied)'
            cand migrate 'Convert PlacementRules and federation annotations to Placements, ManifestWorkReplicaSets and ReplicaSchedulingPreferences, with a loss report (and --verify, a proof)'
            cand vectors 'Run upstream''s own test cases (vector files) through this build''s engines (exit 0 every vector passes, 1 one fails or a file is not a vector file)'
            cand completions 'Print the shell completion script of SHELL, or write every shell''s into --dir'
            cand man 'Print the manual page, or write one page per subcommand into --dir'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fleetplan;plan'= {
            cand -f 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --filename 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --config 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)'
            cand -n 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --namespace 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --exclude 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable'
            cand --max-input-bytes 'The largest file (or stdin) read, in bytes'
            cand --max-alias-expansion 'How many values YAML aliases may add to one input (a guard against alias bombs)'
            cand --previous 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas'
            cand --offline 'Treat CLUSTER as offline. Repeatable'
            cand --capacity 'Set how many replicas CLUSTER can hold. Repeatable'
            cand --label 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable'
            cand --taint 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable'
            cand --now 'The time taint tolerations are judged at (RFC 3339); default: now'
            cand -l 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')'
            cand --selector 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --cluster 'Only what lands on cluster NAME: every item of every engine (Placements, PlacementRules, consumers, kubefed, Karmada, replica workloads), with its chain. The blast radius of taking NAME down'
            cand --out 'Write the output to FILE (atomically: a failed run leaves FILE as it was)'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand --no-config 'Ignore .fleetplan.yaml: only the command line counts'
            cand -v 'Also list the documents that were read but not used, and what walking skipped'
            cand --verbose 'Also list the documents that were read but not used, and what walking skipped'
            cand --hidden 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
            cand --enforce-spread-policy 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;explain'= {
            cand -f 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --filename 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --config 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)'
            cand -n 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --namespace 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --exclude 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable'
            cand --max-input-bytes 'The largest file (or stdin) read, in bytes'
            cand --max-alias-expansion 'How many values YAML aliases may add to one input (a guard against alias bombs)'
            cand --previous 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas'
            cand --offline 'Treat CLUSTER as offline. Repeatable'
            cand --capacity 'Set how many replicas CLUSTER can hold. Repeatable'
            cand --label 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable'
            cand --taint 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable'
            cand --now 'The time taint tolerations are judged at (RFC 3339); default: now'
            cand --cluster 'Only this cluster: one sentence first, then its detail'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand --no-config 'Ignore .fleetplan.yaml: only the command line counts'
            cand -v 'Also list the documents that were read but not used, and what walking skipped'
            cand --verbose 'Also list the documents that were read but not used, and what walking skipped'
            cand --hidden 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
            cand --enforce-spread-policy 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;select'= {
            cand -f 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --filename 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --config 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)'
            cand -n 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --namespace 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --exclude 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable'
            cand --max-input-bytes 'The largest file (or stdin) read, in bytes'
            cand --max-alias-expansion 'How many values YAML aliases may add to one input (a guard against alias bombs)'
            cand -l 'Label selector in Kubernetes syntax (like kubectl -l); ANDed with SELECTOR'
            cand --selector 'Label selector in Kubernetes syntax (like kubectl -l); ANDed with SELECTOR'
            cand --annotation 'A federation.alpha.kubernetes.io/cluster-selector annotation value (JSON)'
            cand --label-selector 'A metav1.LabelSelector ({matchLabels, matchExpressions}) as YAML or JSON'
            cand --claim-selector 'An OCM claim selector ({matchExpressions}) over cluster claims, as YAML or JSON'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand --no-config 'Ignore .fleetplan.yaml: only the command line counts'
            cand -v 'Also list the documents that were read but not used, and what walking skipped'
            cand --verbose 'Also list the documents that were read but not used, and what walking skipped'
            cand --hidden 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;diff'= {
            cand -f 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --filename 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --config 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)'
            cand -n 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --namespace 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --exclude 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable'
            cand --max-input-bytes 'The largest file (or stdin) read, in bytes'
            cand --max-alias-expansion 'How many values YAML aliases may add to one input (a guard against alias bombs)'
            cand --offline 'Treat CLUSTER as offline. Repeatable'
            cand --capacity 'Set how many replicas CLUSTER can hold. Repeatable'
            cand --label 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable'
            cand --taint 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable'
            cand --now 'The time taint tolerations are judged at (RFC 3339); default: now'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --previous 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand --no-config 'Ignore .fleetplan.yaml: only the command line counts'
            cand -v 'Also list the documents that were read but not used, and what walking skipped'
            cand --verbose 'Also list the documents that were read but not used, and what walking skipped'
            cand --hidden 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
            cand --enforce-spread-policy 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
            cand --manifests-only 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;check'= {
            cand -f 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --filename 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --config 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)'
            cand -n 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --namespace 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --exclude 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable'
            cand --max-input-bytes 'The largest file (or stdin) read, in bytes'
            cand --max-alias-expansion 'How many values YAML aliases may add to one input (a guard against alias bombs)'
            cand --previous 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas'
            cand --offline 'Treat CLUSTER as offline. Repeatable'
            cand --capacity 'Set how many replicas CLUSTER can hold. Repeatable'
            cand --label 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable'
            cand --taint 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable'
            cand --now 'The time taint tolerations are judged at (RFC 3339); default: now'
            cand -l 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')'
            cand --selector 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --baseline 'Findings FILE (written by --write-baseline) holds are known: reported as such, they do not fail the run; new ones do, and entries no longer found are reported as resolved'
            cand --write-baseline 'Record this run''s findings in FILE (sorted YAML, for --baseline) and exit 0'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand --no-config 'Ignore .fleetplan.yaml: only the command line counts'
            cand -v 'Also list the documents that were read but not used, and what walking skipped'
            cand --verbose 'Also list the documents that were read but not used, and what walking skipped'
            cand --hidden 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
            cand --enforce-spread-policy 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
            cand --manifests-only 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;migrate'= {
            cand -f 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --filename 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable'
            cand --config 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)'
            cand -n 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --namespace 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]'
            cand --exclude 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable'
            cand --max-input-bytes 'The largest file (or stdin) read, in bytes'
            cand --max-alias-expansion 'How many values YAML aliases may add to one input (a guard against alias bombs)'
            cand --to 'What to migrate to. `ocm`: PlacementRules and federation annotations become OCM Placements. `karmada`: kubefed Federated* objects with their ReplicaSchedulingPreferences, and federation annotations, become resource templates with Karmada PropagationPolicies (and OverridePolicies for per-cluster overrides)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --out 'Write one file per object into DIR (created when missing) instead of stdout'
            cand --set 'The ManagedClusterSet the Placements choose from, bound in their namespaces. `global` (added when the inputs lack it) holds every cluster, as the legacy schedulers saw them; another set narrows the candidates. `--to ocm` only; `global` when not given'
            cand --fail-on 'Exit 1 without writing any object when a conversion carries a field this faithfully or worse: `lost` (a field not carried), `approximate` (one the new scheduler may decide differently, or lost). The report is still printed'
            cand --ocm-version 'The OCM release of the hub the objects are for (`v1.0`, `v0.16.1`, ...; default: the commit fleetplan follows, 00f84c32): nothing is written that it does not serve (before v1.0, no celSelector: what would need one is reported lost). An unknown version is an error listing the known ones. `--to ocm` only'
            cand --karmada-version 'The Karmada release of the control plane the objects are for (`v1.4`, `v1.18.2`, ...; default: the commit fleetplan follows, f8fdd02df376): before v1.4 a Namespace cannot be kept off the clusters its policy does not choose (reported approximate). An unknown version is an error listing the known ones. `--to karmada` only'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand --no-config 'Ignore .fleetplan.yaml: only the command line counts'
            cand -v 'Also list the documents that were read but not used, and what walking skipped'
            cand --verbose 'Also list the documents that were read but not used, and what walking skipped'
            cand --hidden 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
            cand --verify 'Plan the old and the migrated objects against the inventory in the inputs and compare them per object; exit 2 when any differs'
            cand --no-manifest-work 'Write an object with the federation cluster-selector annotation back without it instead of inside a ManifestWorkReplicaSet, for workloads delivered another way. The loss report says what then delivers it: applied to the hub as is, it runs there. `--to ocm` only'
            cand --keep-going 'Migrate everything that can be when some inputs or objects cannot (a document that does not load, an object defined twice with different content: both copies), write it (also with `--out`), and exit 1 at the end with the list of what failed'
            cand --in-place 'Rewrite the source files instead of printing: each converted object''s document holds what it became (a PlacementRule its Placement, with the ManagedClusterSetBinding it needs), consumers point at the new objects, every other document stays byte for byte. Runs `--verify` first and rewrites nothing unless every object migrated (with `--keep-going`: what migrated is rewritten, the documents that failed stay as they were, exit 1) and verified identical; all files are replaced together or none. Prints the `kubectl delete` lines for the old objects on the hub'
            cand --manifests-only 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;vectors'= {
            cand --max-input-bytes 'The largest file (or stdin) read, in bytes'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;completions'= {
            cand --dir 'Write the scripts of every shell into DIR instead (as committed in completions/)'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;man'= {
            cand --dir 'Write every page into DIR (as committed in man/) instead of printing fleetplan.1'
            cand --color 'When to colour output: auto colours a terminal unless NO_COLOR is set'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fleetplan;help'= {
            cand plan 'Plan every workload: selected clusters, replica layouts, decisions and conditions'
            cand explain 'Explain one item cluster by cluster: why each was or was not chosen, with scores'
            cand select 'List the clusters of an inventory that match label and claim selectors'
            cand diff 'Compare the plan with a previous one (exit 0 no change, 2 changes, 1 error)'
            cand check 'Validate every input and plan everything (exit 0 clean, 1 errors, 3 unsatisfied)'
            cand migrate 'Convert PlacementRules and federation annotations to Placements, ManifestWorkReplicaSets and ReplicaSchedulingPreferences, with a loss report (and --verify, a proof)'
            cand vectors 'Run upstream''s own test cases (vector files) through this build''s engines (exit 0 every vector passes, 1 one fails or a file is not a vector file)'
            cand completions 'Print the shell completion script of SHELL, or write every shell''s into --dir'
            cand man 'Print the manual page, or write one page per subcommand into --dir'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fleetplan;help;plan'= {
        }
        &'fleetplan;help;explain'= {
        }
        &'fleetplan;help;select'= {
        }
        &'fleetplan;help;diff'= {
        }
        &'fleetplan;help;check'= {
        }
        &'fleetplan;help;migrate'= {
        }
        &'fleetplan;help;vectors'= {
        }
        &'fleetplan;help;completions'= {
        }
        &'fleetplan;help;man'= {
        }
        &'fleetplan;help;help'= {
        }
    ]
    $completions[$command]
}
