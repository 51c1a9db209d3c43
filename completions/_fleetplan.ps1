
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'fleetplan' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'fleetplan'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'fleetplan' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Plan every workload: selected clusters, replica layouts, decisions and conditions')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain one item cluster by cluster: why each was or was not chosen, with scores')
            [CompletionResult]::new('select', 'select', [CompletionResultType]::ParameterValue, 'List the clusters of an inventory that match label and claim selectors')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the plan with a previous one (exit 0 no change, 2 changes, 1 error)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every input and plan everything (exit 0 clean, 1 errors, 3 unsatisfied)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Convert PlacementRules and federation annotations to Placements, ManifestWorkReplicaSets and ReplicaSchedulingPreferences, with a loss report (and --verify, a proof)')
            [CompletionResult]::new('vectors', 'vectors', [CompletionResultType]::ParameterValue, 'Run upstream''s own test cases (vector files) through this build''s engines (exit 0 every vector passes, 1 one fails or a file is not a vector file)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script of SHELL, or write every shell''s into --dir')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page, or write one page per subcommand into --dir')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fleetplan;plan' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read, in bytes')
            [CompletionResult]::new('--max-alias-expansion', '--max-alias-expansion', [CompletionResultType]::ParameterName, 'How many values YAML aliases may add to one input (a guard against alias bombs)')
            [CompletionResult]::new('--previous', '--previous', [CompletionResultType]::ParameterName, 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Treat CLUSTER as offline. Repeatable')
            [CompletionResult]::new('--capacity', '--capacity', [CompletionResultType]::ParameterName, 'Set how many replicas CLUSTER can hold. Repeatable')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable')
            [CompletionResult]::new('--taint', '--taint', [CompletionResultType]::ParameterName, 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time taint tolerations are judged at (RFC 3339); default: now')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Only what lands on cluster NAME: every item of every engine (Placements, PlacementRules, consumers, kubefed, Karmada, replica workloads), with its chain. The blast radius of taking NAME down')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write the output to FILE (atomically: a failed run leaves FILE as it was)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore .fleetplan.yaml: only the command line counts')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)')
            [CompletionResult]::new('--enforce-spread-policy', '--enforce-spread-policy', [CompletionResultType]::ParameterName, 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;explain' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read, in bytes')
            [CompletionResult]::new('--max-alias-expansion', '--max-alias-expansion', [CompletionResultType]::ParameterName, 'How many values YAML aliases may add to one input (a guard against alias bombs)')
            [CompletionResult]::new('--previous', '--previous', [CompletionResultType]::ParameterName, 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Treat CLUSTER as offline. Repeatable')
            [CompletionResult]::new('--capacity', '--capacity', [CompletionResultType]::ParameterName, 'Set how many replicas CLUSTER can hold. Repeatable')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable')
            [CompletionResult]::new('--taint', '--taint', [CompletionResultType]::ParameterName, 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time taint tolerations are judged at (RFC 3339); default: now')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Only this cluster: one sentence first, then its detail')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore .fleetplan.yaml: only the command line counts')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)')
            [CompletionResult]::new('--enforce-spread-policy', '--enforce-spread-policy', [CompletionResultType]::ParameterName, 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;select' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read, in bytes')
            [CompletionResult]::new('--max-alias-expansion', '--max-alias-expansion', [CompletionResultType]::ParameterName, 'How many values YAML aliases may add to one input (a guard against alias bombs)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector in Kubernetes syntax (like kubectl -l); ANDed with SELECTOR')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector in Kubernetes syntax (like kubectl -l); ANDed with SELECTOR')
            [CompletionResult]::new('--annotation', '--annotation', [CompletionResultType]::ParameterName, 'A federation.alpha.kubernetes.io/cluster-selector annotation value (JSON)')
            [CompletionResult]::new('--label-selector', '--label-selector', [CompletionResultType]::ParameterName, 'A metav1.LabelSelector ({matchLabels, matchExpressions}) as YAML or JSON')
            [CompletionResult]::new('--claim-selector', '--claim-selector', [CompletionResultType]::ParameterName, 'An OCM claim selector ({matchExpressions}) over cluster claims, as YAML or JSON')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore .fleetplan.yaml: only the command line counts')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;diff' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read, in bytes')
            [CompletionResult]::new('--max-alias-expansion', '--max-alias-expansion', [CompletionResultType]::ParameterName, 'How many values YAML aliases may add to one input (a guard against alias bombs)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Treat CLUSTER as offline. Repeatable')
            [CompletionResult]::new('--capacity', '--capacity', [CompletionResultType]::ParameterName, 'Set how many replicas CLUSTER can hold. Repeatable')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable')
            [CompletionResult]::new('--taint', '--taint', [CompletionResultType]::ParameterName, 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time taint tolerations are judged at (RFC 3339); default: now')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--previous', '--previous', [CompletionResultType]::ParameterName, 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore .fleetplan.yaml: only the command line counts')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)')
            [CompletionResult]::new('--enforce-spread-policy', '--enforce-spread-policy', [CompletionResultType]::ParameterName, 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does')
            [CompletionResult]::new('--manifests-only', '--manifests-only', [CompletionResultType]::ParameterName, 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;check' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read, in bytes')
            [CompletionResult]::new('--max-alias-expansion', '--max-alias-expansion', [CompletionResultType]::ParameterName, 'How many values YAML aliases may add to one input (a guard against alias bombs)')
            [CompletionResult]::new('--previous', '--previous', [CompletionResultType]::ParameterName, 'A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or directory, as a live hub exports them): previous decisions and current replicas')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Treat CLUSTER as offline. Repeatable')
            [CompletionResult]::new('--capacity', '--capacity', [CompletionResultType]::ParameterName, 'Set how many replicas CLUSTER can hold. Repeatable')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable')
            [CompletionResult]::new('--taint', '--taint', [CompletionResultType]::ParameterName, 'Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time taint tolerations are judged at (RFC 3339); default: now')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Only the workloads whose labels match SELECTOR, as `kubectl get -l` (''tier=web,env!=dev'', ''app in (shop,cart)'', ''!legacy'')')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Findings FILE (written by --write-baseline) holds are known: reported as such, they do not fail the run; new ones do, and entries no longer found are reported as resolved')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Record this run''s findings in FILE (sorted YAML, for --baseline) and exit 0')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore .fleetplan.yaml: only the command line counts')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)')
            [CompletionResult]::new('--enforce-spread-policy', '--enforce-spread-policy', [CompletionResultType]::ParameterName, 'Enforce Placements'' spec.spreadPolicy, a fleetplan extension: the OCM scheduler accepts it but does not enforce it, so by default plans select as the hub does')
            [CompletionResult]::new('--manifests-only', '--manifests-only', [CompletionResultType]::ParameterName, 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;migrate' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'A file, a directory (recursive), a glob (''envs/**/*.yaml'') or - for stdin. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the working directory or its parents (up to the repository root)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of namespaced objects that have none, as `kubectl apply -n` gives it [default: default]')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative to the directory walked: ''vendor/'', ''*.tmpl.yaml''). Repeatable')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read, in bytes')
            [CompletionResult]::new('--max-alias-expansion', '--max-alias-expansion', [CompletionResultType]::ParameterName, 'How many values YAML aliases may add to one input (a guard against alias bombs)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'What to migrate to. `ocm`: PlacementRules and federation annotations become OCM Placements. `karmada`: kubefed Federated* objects with their ReplicaSchedulingPreferences, and federation annotations, become resource templates with Karmada PropagationPolicies (and OverridePolicies for per-cluster overrides)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write one file per object into DIR (created when missing) instead of stdout')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'The ManagedClusterSet the Placements choose from, bound in their namespaces. `global` (added when the inputs lack it) holds every cluster, as the legacy schedulers saw them; another set narrows the candidates. `--to ocm` only; `global` when not given')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 without writing any object when a conversion carries a field this faithfully or worse: `lost` (a field not carried), `approximate` (one the new scheduler may decide differently, or lost). The report is still printed')
            [CompletionResult]::new('--ocm-version', '--ocm-version', [CompletionResultType]::ParameterName, 'The OCM release of the hub the objects are for (`v1.0`, `v0.16.1`, ...; default: the commit fleetplan follows, 00f84c32): nothing is written that it does not serve (before v1.0, no celSelector: what would need one is reported lost). An unknown version is an error listing the known ones. `--to ocm` only')
            [CompletionResult]::new('--karmada-version', '--karmada-version', [CompletionResultType]::ParameterName, 'The Karmada release of the control plane the objects are for (`v1.4`, `v1.18.2`, ...; default: the commit fleetplan follows, f8fdd02df376): before v1.4 a Namespace cannot be kept off the clusters its policy does not choose (reported approximate). An unknown version is an error listing the known ones. `--to karmada` only')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore .fleetplan.yaml: only the command line counts')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also list the documents that were read but not used, and what walking skipped')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml)')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Plan the old and the migrated objects against the inventory in the inputs and compare them per object; exit 2 when any differs')
            [CompletionResult]::new('--no-manifest-work', '--no-manifest-work', [CompletionResultType]::ParameterName, 'Write an object with the federation cluster-selector annotation back without it instead of inside a ManifestWorkReplicaSet, for workloads delivered another way. The loss report says what then delivers it: applied to the hub as is, it runs there. `--to ocm` only')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Migrate everything that can be when some inputs or objects cannot (a document that does not load, an object defined twice with different content: both copies), write it (also with `--out`), and exit 1 at the end with the list of what failed')
            [CompletionResult]::new('--in-place', '--in-place', [CompletionResultType]::ParameterName, 'Rewrite the source files instead of printing: each converted object''s document holds what it became (a PlacementRule its Placement, with the ManagedClusterSetBinding it needs), consumers point at the new objects, every other document stays byte for byte. Runs `--verify` first and rewrites nothing unless every object migrated (with `--keep-going`: what migrated is rewritten, the documents that failed stay as they were, exit 1) and verified identical; all files are replaced together or none. Prints the `kubectl delete` lines for the old objects on the hub')
            [CompletionResult]::new('--manifests-only', '--manifests-only', [CompletionResultType]::ParameterName, 'Validate the manifests without an inventory: placements are not evaluated, and the output says so. Without it, inputs with no clusters are an error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;vectors' {
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read, in bytes')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;completions' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Write the scripts of every shell into DIR instead (as committed in completions/)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;man' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Write every page into DIR (as committed in man/) instead of printing fleetplan.1')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fleetplan;help' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Plan every workload: selected clusters, replica layouts, decisions and conditions')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain one item cluster by cluster: why each was or was not chosen, with scores')
            [CompletionResult]::new('select', 'select', [CompletionResultType]::ParameterValue, 'List the clusters of an inventory that match label and claim selectors')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the plan with a previous one (exit 0 no change, 2 changes, 1 error)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every input and plan everything (exit 0 clean, 1 errors, 3 unsatisfied)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Convert PlacementRules and federation annotations to Placements, ManifestWorkReplicaSets and ReplicaSchedulingPreferences, with a loss report (and --verify, a proof)')
            [CompletionResult]::new('vectors', 'vectors', [CompletionResultType]::ParameterValue, 'Run upstream''s own test cases (vector files) through this build''s engines (exit 0 every vector passes, 1 one fails or a file is not a vector file)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script of SHELL, or write every shell''s into --dir')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page, or write one page per subcommand into --dir')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fleetplan;help;plan' {
            break
        }
        'fleetplan;help;explain' {
            break
        }
        'fleetplan;help;select' {
            break
        }
        'fleetplan;help;diff' {
            break
        }
        'fleetplan;help;check' {
            break
        }
        'fleetplan;help;migrate' {
            break
        }
        'fleetplan;help;vectors' {
            break
        }
        'fleetplan;help;completions' {
            break
        }
        'fleetplan;help;man' {
            break
        }
        'fleetplan;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
