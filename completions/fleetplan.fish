# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_fleetplan_global_optspecs
    string join \n color= h/help V/version
end

function __fish_fleetplan_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_fleetplan_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_fleetplan_using_subcommand
    set -l cmd (__fish_fleetplan_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c fleetplan -n "__fish_fleetplan_needs_command" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -s V -l version -d 'Print version'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "plan" -d 'Plan every workload: selected clusters, replica layouts, decisions and conditions'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "explain" -d 'Explain one item cluster by cluster: why each was or was not chosen, with scores'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "select" -d 'List the clusters of an inventory that match label and claim selectors'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "diff" -d 'Compare the plan with a previous one (exit 0 no change, 2 changes, 1 error)'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "check" -d 'Validate every input and plan everything (exit 0 clean, 1 errors, 3 unsatisfied)'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "migrate" -d 'Convert PlacementRules and federation annotations to Placements, ManifestWorkReplicaSets and ReplicaSchedulingPreferences, with a loss report (and --verify, a proof)'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "vectors" -d 'Run upstream\'s own test cases (vector files) through this build\'s engines (exit 0 every vector passes, 1 one fails or a file is not a vector file)'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "completions" -d 'Print the shell completion script of SHELL, or write every shell\'s into --dir'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "man" -d 'Print the manual page, or write one page per subcommand into --dir'
complete -c fleetplan -n "__fish_fleetplan_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -s f -l filename -d 'A file, a directory (recursive), a glob (\'envs/**/*.yaml\') or - for stdin. Repeatable' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l config -d 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -s n -l namespace -d 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l exclude -d 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: \'vendor/\', \'*.tmpl.yaml\'). Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l max-input-bytes -d 'The largest file (or stdin) read, in bytes' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l max-alias-expansion -d 'How many values YAML aliases may add to one input (a guard against alias bombs)' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l previous -d 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l offline -d 'Treat CLUSTER as offline. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l capacity -d 'Set how many replicas CLUSTER can hold. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l label -d 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l taint -d 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l now -d 'The time taint tolerations are judged at (RFC 3339); default: now' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -s l -l selector -d 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (\'tier=web,env!=dev\', \'app in (shop,cart)\', \'!legacy\')' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -s o -l output -d 'Output format' -r -f -a "table\t'Per item: its clusters, replicas, scores and what is unsatisfied'
yaml\t'The Plan document (fleetplan.io/v1alpha1) as YAML'
json\t'The Plan document as JSON'
decisions\t'Apply-ready PlacementDecision objects for the OCM Placements'
bindings\t'The ResourceBindings karmada-scheduler would write for the Karmada resources'
name\t'One `Kind/namespace/name` per item, in plan order (what `explain` takes)'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l cluster -d 'Only what lands on cluster NAME: every item of every engine (Placements, PlacementRules, consumers, kubefed, Karmada, replica workloads), with its chain. The blast radius of taking NAME down' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l out -d 'Write the output to FILE (atomically: a failed run leaves FILE as it was)' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l no-config -d 'Ignore .fleetplan.yaml: only the command line counts'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -s v -l verbose -d 'Also list the documents that were read but not used, and what walking skipped'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l hidden -d 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -l enforce-spread-policy -d 'Enforce Placements\' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -s f -l filename -d 'A file, a directory (recursive), a glob (\'envs/**/*.yaml\') or - for stdin. Repeatable' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l config -d 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -s n -l namespace -d 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l exclude -d 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: \'vendor/\', \'*.tmpl.yaml\'). Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l max-input-bytes -d 'The largest file (or stdin) read, in bytes' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l max-alias-expansion -d 'How many values YAML aliases may add to one input (a guard against alias bombs)' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l previous -d 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l offline -d 'Treat CLUSTER as offline. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l capacity -d 'Set how many replicas CLUSTER can hold. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l label -d 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l taint -d 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l now -d 'The time taint tolerations are judged at (RFC 3339); default: now' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l cluster -d 'Only this cluster: one sentence first, then its detail' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -s o -l output -d 'Output format' -r -f -a "table\t'A summary, then each cluster\'s verdict and reason'
json\t'The same as JSON; placements also carry upstream\'s debug shape'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l no-config -d 'Ignore .fleetplan.yaml: only the command line counts'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -s v -l verbose -d 'Also list the documents that were read but not used, and what walking skipped'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l hidden -d 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -l enforce-spread-policy -d 'Enforce Placements\' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -s f -l filename -d 'A file, a directory (recursive), a glob (\'envs/**/*.yaml\') or - for stdin. Repeatable' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l config -d 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -s n -l namespace -d 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l exclude -d 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: \'vendor/\', \'*.tmpl.yaml\'). Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l max-input-bytes -d 'The largest file (or stdin) read, in bytes' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l max-alias-expansion -d 'How many values YAML aliases may add to one input (a guard against alias bombs)' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -s l -l selector -d 'Label selector in Kubernetes syntax (like kubectl -l); ANDed with SELECTOR' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l annotation -d 'A federation.alpha.kubernetes.io/cluster-selector annotation value (JSON)' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l label-selector -d 'A metav1.LabelSelector ({matchLabels, matchExpressions}) as YAML or JSON' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l claim-selector -d 'An OCM claim selector ({matchExpressions}) over cluster claims, as YAML or JSON' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -s o -l output -d 'Output format' -r -f -a "table\t''
name\t''
json\t''
yaml\t''"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l no-config -d 'Ignore .fleetplan.yaml: only the command line counts'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -s v -l verbose -d 'Also list the documents that were read but not used, and what walking skipped'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -l hidden -d 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand select" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -s f -l filename -d 'A file, a directory (recursive), a glob (\'envs/**/*.yaml\') or - for stdin. Repeatable' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l config -d 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -s n -l namespace -d 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l exclude -d 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: \'vendor/\', \'*.tmpl.yaml\'). Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l max-input-bytes -d 'The largest file (or stdin) read, in bytes' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l max-alias-expansion -d 'How many values YAML aliases may add to one input (a guard against alias bombs)' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l offline -d 'Treat CLUSTER as offline. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l capacity -d 'Set how many replicas CLUSTER can hold. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l label -d 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l taint -d 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l now -d 'The time taint tolerations are judged at (RFC 3339); default: now' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -s o -l output -d 'Output format' -r -f -a "text\t'What changed per item, then a unified diff of the two plans\' YAML'
json\t'The change set as JSON (`{}` when nothing changed)'
markdown\t'A pull-request comment: the summary and a table, then each item\'s changes (long ones folded in <details>)'
github\t'GitHub Actions annotations (`::notice file=…::…`) on each item\'s file, then the summary'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l previous -d 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l no-config -d 'Ignore .fleetplan.yaml: only the command line counts'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -s v -l verbose -d 'Also list the documents that were read but not used, and what walking skipped'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l hidden -d 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l enforce-spread-policy -d 'Enforce Placements\' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -l manifests-only -d 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -s f -l filename -d 'A file, a directory (recursive), a glob (\'envs/**/*.yaml\') or - for stdin. Repeatable' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l config -d 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -s n -l namespace -d 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l exclude -d 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: \'vendor/\', \'*.tmpl.yaml\'). Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l max-input-bytes -d 'The largest file (or stdin) read, in bytes' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l max-alias-expansion -d 'How many values YAML aliases may add to one input (a guard against alias bombs)' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l previous -d 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l offline -d 'Treat CLUSTER as offline. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l capacity -d 'Set how many replicas CLUSTER can hold. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l label -d 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l taint -d 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l now -d 'The time taint tolerations are judged at (RFC 3339); default: now' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -s l -l selector -d 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (\'tier=web,env!=dev\', \'app in (shop,cart)\', \'!legacy\')' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -s o -l output -d 'Output format' -r -f -a "text\t'One line per error and unsatisfied condition, then a summary'
json\t'The report as JSON: result, items, errors, unsatisfied'
github\t'GitHub Actions annotations (`::error file=…,line=…::…`), then the summary'
junit\t'JUnit XML, one test case per item (GitLab, Jenkins, Azure Pipelines test reports)'
sarif\t'SARIF 2.1.0, one result per finding (GitHub code scanning)'
markdown\t'A pull-request comment: the summary, a table of findings (new ones marked against a baseline, known ones folded), resolved entries'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l baseline -d 'Findings FILE (written by --write-baseline) holds are known: reported as such, they do not fail the run; new ones do, and entries no longer found are reported as resolved' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l write-baseline -d 'Record this run\'s findings in FILE (sorted YAML, for --baseline) and exit 0' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l no-config -d 'Ignore .fleetplan.yaml: only the command line counts'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -s v -l verbose -d 'Also list the documents that were read but not used, and what walking skipped'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l hidden -d 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l enforce-spread-policy -d 'Enforce Placements\' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -l manifests-only -d 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -s f -l filename -d 'A file, a directory (recursive), a glob (\'envs/**/*.yaml\') or - for stdin. Repeatable' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l config -d 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -s n -l namespace -d 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l exclude -d 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: \'vendor/\', \'*.tmpl.yaml\'). Repeatable' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l max-input-bytes -d 'The largest file (or stdin) read, in bytes' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l max-alias-expansion -d 'How many values YAML aliases may add to one input (a guard against alias bombs)' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l to -d 'What to migrate to. `ocm`: PlacementRules and federation annotations become OCM Placements. `karmada`: kubefed Federated* objects with their ReplicaSchedulingPreferences, and federation annotations, become resource templates with Karmada PropagationPolicies (and OverridePolicies for per-cluster overrides)' -r -f -a "ocm\t'Open Cluster Management Placements'
karmada\t'Karmada PropagationPolicies'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -s o -l output -d 'Output format' -r -f -a "yaml\t'The objects as one YAML stream'
json\t'A Migration document: the objects, the loss report and the verification'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l out -d 'Write one file per object into DIR (created when missing) instead of stdout' -r -F
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l set -d 'The ManagedClusterSet the Placements choose from, bound in their namespaces. `global` (added when the inputs lack it) holds every cluster, as the legacy schedulers saw them; another set narrows the candidates. `--to ocm` only; `global` when not given' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l fail-on -d 'Exit 1 without writing any object when a conversion carries a field this faithfully or worse: `lost` (a field not carried), `approximate` (one the new scheduler may decide differently, or lost). The report is still printed' -r -f -a "lost\t'Any field not carried'
approximate\t'Any field carried approximately or not at all'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l ocm-version -d 'The OCM release of the hub the objects are for (`v1.0`, `v0.16.1`, ...; default: the commit fleetplan follows, 00f84c32): nothing is written that it does not serve (before v1.0, no celSelector: what would need one is reported lost). An unknown version is an error listing the known ones. `--to ocm` only' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l karmada-version -d 'The Karmada release of the control plane the objects are for (`v1.4`, `v1.18.2`, ...; default: the commit fleetplan follows, f8fdd02df376): before v1.4 a Namespace cannot be kept off the clusters its policy does not choose (reported approximate). An unknown version is an error listing the known ones. `--to karmada` only' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l no-config -d 'Ignore .fleetplan.yaml: only the command line counts'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -s v -l verbose -d 'Also list the documents that were read but not used, and what walking skipped'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l hidden -d 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l verify -d 'Plan the old and the migrated objects against the inventory in the inputs and compare them per object; exit 2 when any differs'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l no-manifest-work -d 'Write an object with the federation cluster-selector annotation back without it instead of inside a ManifestWorkReplicaSet, for workloads delivered another way. The loss report says what then delivers it: applied to the hub as is, it runs there. `--to ocm` only'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l keep-going -d 'Migrate everything that can be when some inputs or objects cannot (a document that does not load, an object defined twice with different content: both copies), write it (also with `--out`), and exit 1 at the end with the list of what failed'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l in-place -d 'Rewrite the source files instead of printing: each converted object\'s document holds what it became (a PlacementRule its Placement, with the ManagedClusterSetBinding it needs), consumers point at the new objects, every other document stays byte for byte. Runs `--verify` first and rewrites nothing unless every object migrated (with `--keep-going`: what migrated is rewritten, the documents that failed stay as they were, exit 1) and verified identical; all files are replaced together or none. Prints the `kubectl delete` lines for the old objects on the hub'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -l manifests-only -d 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand migrate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand vectors" -l max-input-bytes -d 'The largest file (or stdin) read, in bytes' -r
complete -c fleetplan -n "__fish_fleetplan_using_subcommand vectors" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand vectors" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand completions" -l dir -d 'Write the scripts of every shell into DIR instead (as committed in completions/)' -r -f -a "(__fish_complete_directories)"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand completions" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand man" -l dir -d 'Write every page into DIR (as committed in man/) instead of printing fleetplan.1' -r -f -a "(__fish_complete_directories)"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand man" -l color -d 'When to colour output: auto colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always colour, even piped or with NO_COLOR set'
never\t'Never colour'"
complete -c fleetplan -n "__fish_fleetplan_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "plan" -d 'Plan every workload: selected clusters, replica layouts, decisions and conditions'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "explain" -d 'Explain one item cluster by cluster: why each was or was not chosen, with scores'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "select" -d 'List the clusters of an inventory that match label and claim selectors'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "diff" -d 'Compare the plan with a previous one (exit 0 no change, 2 changes, 1 error)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "check" -d 'Validate every input and plan everything (exit 0 clean, 1 errors, 3 unsatisfied)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "migrate" -d 'Convert PlacementRules and federation annotations to Placements, ManifestWorkReplicaSets and ReplicaSchedulingPreferences, with a loss report (and --verify, a proof)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "vectors" -d 'Run upstream\'s own test cases (vector files) through this build\'s engines (exit 0 every vector passes, 1 one fails or a file is not a vector file)'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "completions" -d 'Print the shell completion script of SHELL, or write every shell\'s into --dir'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "man" -d 'Print the manual page, or write one page per subcommand into --dir'
complete -c fleetplan -n "__fish_fleetplan_using_subcommand help; and not __fish_seen_subcommand_from plan explain select diff check migrate vectors completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
