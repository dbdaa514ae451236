# SPDX-License-Identifier: BSD-2-Clause
# fish completion for progress(1) as tach provides it: progress's options
# until the command, then the command's own completions.

# The command progress will run and its words so far; nothing before it.
function __progress_command
    set -l words (commandline -opc)
    set -e words[1]
    while set -q words[1]
        switch $words[1]
            case -b -f -l -p
                set -e words[1]
            case '-*'
                string match -rq -- '^-[ez]*[bflp]$' $words[1]
                and set -e words[1]
            case '*'
                break
        end
        set -e words[1]
    end
    set -q words[1]; and printf '%s\n' $words
end

complete -c progress -n 'not __progress_command' -s b -x -d 'buffer size'
complete -c progress -n 'not __progress_command' -s e -d 'display on stderr'
complete -c progress -n 'not __progress_command' -s f -r -F -d 'read this file'
complete -c progress -n 'not __progress_command' -s l -x -d 'expected length'
complete -c progress -n 'not __progress_command' -s p -x -d 'text before the bar'
complete -c progress -n 'not __progress_command' -s z -d 'decompress the input'
complete -c progress -n 'not __progress_command' -a '(__fish_complete_command)'
complete -c progress -n __progress_command -x -a '(__fish_complete_subcommand --commandline (__progress_command) (commandline -ct))'
