# Bash completion for the focuscrawl commands: subcommands and flags, as
# each command lists them itself (urfave/cli's --generate-bash-completion),
# then file names.
#
#   source scripts/completion.bash                  # this shell
#   cp scripts/completion.bash /etc/bash_completion.d/focuscrawl   # everyone
#   cp scripts/completion.bash ~/.local/share/bash-completion/completions/seed   # one user
#     (and the same file under the other names: fetch, segment, score, verify, dedupe, simweb)
#
# zsh: autoload -U +X bashcompinit && bashcompinit && source scripts/completion.bash

_focuscrawl_complete() {
  local cur words
  cur="${COMP_WORDS[COMP_CWORD]}"
  # Ask the command, with the words typed so far (flags only when the word
  # being completed starts with a dash, as urfave/cli expects).
  if [[ "$cur" == -* ]]; then
    words=$("${COMP_WORDS[@]:0:COMP_CWORD}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    words=$("${COMP_WORDS[@]:0:COMP_CWORD}" --generate-bash-completion 2>/dev/null)
  fi
  local IFS=$'\n'
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  if [[ ${#COMPREPLY[@]} -eq 0 ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}

complete -o filenames -F _focuscrawl_complete fetch segment score verify dedupe seed simweb
