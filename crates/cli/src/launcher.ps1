# hookc launcher for Windows, written by `hookc init` beside .hookc/hookc: commit both with the
# agents' settings. Copilot CLI and VS Code run a hook's `powershell` command on Windows; that
# command reads this file and runs it as a script block (so no execution policy stands in the
# way), passing the project root first. It finds hookc.exe on this machine and runs it from the
# project root, its standard input passed through byte for byte; when there is none it exits 2,
# so the agent blocks the call instead of running it unchecked. Search order: $env:HOOKC (an
# absolute path), each directory of PATH (where npm's hookc.cmd stands, the native hookc.exe of its
# platform package), %USERPROFILE%\.cargo\bin, %LOCALAPPDATA%\Programs\hookc.
# A hookc.exe in the project, a node_modules\.bin, a .venv or venv, or a relative PATH entry is
# never used: the agent could have put it there. $Pin is the hookc version this wiring expects.
param([string]$Root)
$Pin = '@PIN@'
function Fail([string]$Message) { [Console]::Error.WriteLine("hookc: $Message"); exit 2 }
try { $Root = (Resolve-Path -LiteralPath $Root -ErrorAction Stop).ProviderPath } catch { Fail "cannot find the project root $Root" }
$Inside = $Root.TrimEnd('\', '/') + '\'
function Usable([string]$Candidate) {
    if (-not $Candidate -or -not [IO.Path]::IsPathRooted($Candidate)) { return $false }
    if (-not (Test-Path -LiteralPath $Candidate -PathType Leaf)) { return $false }
    $dir = [IO.Path]::GetDirectoryName([IO.Path]::GetFullPath($Candidate)).TrimEnd('\') + '\'
    if ($dir.StartsWith($Inside, [StringComparison]::OrdinalIgnoreCase)) { return $false }
    foreach ($planted in '\node_modules\.bin\', '\.venv\Scripts\', '\venv\Scripts\', '\.venv\bin\', '\venv\bin\') {
        if ($dir.EndsWith($planted, [StringComparison]::OrdinalIgnoreCase)) { return $false }
    }
    return $true
}
$Found = $null
if ($env:HOOKC -and (Usable $env:HOOKC)) { $Found = $env:HOOKC }
if (-not $Found) {
    $dirs = @($env:PATH -split ';')
    if ($env:USERPROFILE) { $dirs += Join-Path $env:USERPROFILE '.cargo\bin' }
    if ($env:LOCALAPPDATA) { $dirs += Join-Path $env:LOCALAPPDATA 'Programs\hookc' }
    foreach ($dir in $dirs) {
        if (-not $dir) { continue }
        $candidate = Join-Path $dir 'hookc.exe'
        if (Usable $candidate) { $Found = $candidate; break }
        # npm's `hookc.cmd` there runs Node; the native hookc.exe is in its platform package.
        if (Test-Path -LiteralPath (Join-Path $dir 'hookc.cmd') -PathType Leaf) {
            $candidate = Join-Path $dir 'node_modules\@hookc\win32-x64\hookc.exe'
            if (Usable $candidate) { $Found = $candidate; break }
        }
    }
}
if (-not $Found) {
    Fail "no hookc $Pin found on this machine (searched `$env:HOOKC, PATH, %USERPROFILE%\.cargo\bin, %LOCALAPPDATA%\Programs\hookc; one inside the project is never used); install it, then try again. This call is blocked."
}
# One argument as the C runtime reads a command line back.
function Quote([string]$Word) {
    if ($Word -and $Word -notmatch '[\s"]') { return $Word }
    return '"' + (($Word -replace '(\\*)"', '$1$1\"') -replace '(\\+)$', '$1$1') + '"'
}
$start = New-Object Diagnostics.ProcessStartInfo
$start.FileName = $Found
$start.Arguments = ((@('--require-version', $Pin) + $args) | ForEach-Object { Quote ([string]$_) }) -join ' '
$start.WorkingDirectory = $Root
$start.UseShellExecute = $false
$start.RedirectStandardInput = $true
try { $process = [Diagnostics.Process]::Start($start) } catch { Fail "cannot run ${Found}: $_" }
# The payload goes through as bytes (PowerShell's own pipe to a program re-encodes text).
try { [Console]::OpenStandardInput().CopyTo($process.StandardInput.BaseStream) } catch { }
$process.StandardInput.Close()
$process.WaitForExit()
exit $process.ExitCode
