# SPDX-License-Identifier: BSD-2-Clause
# fish completion for tach(1): tach's options until the command, then the
# command's own completions.

# The command tach will run and its words so far; nothing before it.
function __tach_command
    set -l words (commandline -opc)
    set -e words[1]
    while set -q words[1]
        switch $words[1]
            case --
                set -e words[1]
                break
            case '--*=*'
            case -b --buffer-size -D --delay-start -d --watchfd -F --format \
                    -f --file -i --interval -L --rate-limit -l --size \
                    -N --name -P --pidfile -p --prefix -R --remote -w --width \
                    -U --store-and-forward -o --output -u --bar-style \
                    -m --average-rate-window -x --extra-display -Q --query \
                    -A --last-written -M --monitor \
                    --stall-timeout --write-at --read-at --read-limit \
                    --buffer-file --log --hash --output-block
                set -e words[1]
            case '-*'
                # run together, the last letter's argument is the next word
                string match -rq -- '^-[08cEegKknOqSWXYz]*[AbDdFfiLlMmNoPpQRUuwx]$' $words[1]
                and set -e words[1]
            case '*'
                break
        end
        set -e words[1]
    end
    set -q words[1]; and printf '%s\n' $words
end

complete -c tach -n 'not __tach_command' -s 0 -l null -d 'count NUL-terminated records'
complete -c tach -n 'not __tach_command' -s 8 -l bits -d 'amounts and rates in bits'
complete -c tach -n 'not __tach_command' -s A -l last-written -x -d 'in line mode, the last bytes written'
complete -c tach -n 'not __tach_command' -s b -l buffer-size -x -d 'transfer buffer size; 4m and up, a buffer'
complete -c tach -n 'not __tach_command' -s c -l cursor -d 'a line of its own at the bottom, below other output'
complete -c tach -n 'not __tach_command' -s D -l delay-start -x -d 'draw nothing for the first seconds'
complete -c tach -n 'not __tach_command' -s d -l watchfd -x -a '(__fish_complete_pids)' -d 'watch the files a running process (or a path'"'"'s holders) has open'
complete -c tach -n 'not __tach_command' -s E -l skip-errors -d 'zeros for unreadable blocks'
complete -c tach -n 'not __tach_command' -s e -l stderr -d 'draw on stderr in command mode'
complete -c tach -n 'not __tach_command' -s f -l file -r -F -d 'read this file (again for several)'
complete -c tach -n 'not __tach_command' -s g -l gauge -d 'no size known: a bar of the rate against the highest'
complete -c tach -n 'not __tach_command' -s i -l interval -x -d 'seconds between redraws'
complete -c tach -n 'not __tach_command' -s K -l direct-io -d 'files and disks past the page cache'
complete -c tach -n 'not __tach_command' -s k -l si -d 'powers of 1000, shown and in the sizes after it'
complete -c tach -n 'not __tach_command' -s L -l rate-limit -x -d 'at most this many bytes a second'
complete -c tach -n 'not __tach_command' -s l -l size -x -d 'expected length, or @FILE for its length'
complete -c tach -n 'not __tach_command' -s m -l average-rate-window -x -d 'the average and the time left over the last seconds'
complete -c tach -n 'not __tach_command' -s N -l name -x -d 'label the line'
complete -c tach -n 'not __tach_command' -s n -l numeric -d 'a percentage a line on stderr, or -F fields as numbers'
complete -c tach -n 'not __tach_command' -s P -l pidfile -r -F -d 'write the PID to this file while running'
complete -c tach -n 'not __tach_command' -s p -l prefix -x -d 'text left of the bar'
complete -c tach -n 'not __tach_command' -s O -l sparse -d 'holes in the output file for blocks of zeros'
complete -c tach -n 'not __tach_command' -s o -l output -r -F -d 'write to this file, not to stdout; repeat for several'
complete -c tach -n 'not __tach_command' -s X -l discard -d 'read and count, write nothing'
complete -c tach -n 'not __tach_command' -s q -l quiet -d 'draw nothing'
complete -c tach -n 'not __tach_command' -s Q -l query -x -a '(__fish_complete_pids)' -d 'draw a running copy\'s progress here'
complete -c tach -n 'not __tach_command' -s R -l remote -x -a '(__fish_complete_pids)' -d 'change a running copy: -L, -N, -p, -i, -w, -F'
complete -c tach -n 'not __tach_command' -s S -l stop-at-size -d 'stop after the -l length'
complete -c tach -n 'not __tach_command' -s U -l store-and-forward -r -F -d 'read all of the input into a new file first, then send it'
complete -c tach -n 'not __tach_command' -s u -l bar-style -x -a 'block plain granular shaded' -d 'how the bar fills'
complete -c tach -n 'not __tach_command' -s W -l wait -d 'draw nothing until the first byte'
complete -c tach -n 'not __tach_command' -s w -l width -x -d 'columns to draw'
complete -c tach -n 'not __tach_command' -s Y -l sync -d 'keep little unwritten, flush at the end'
complete -c tach -n 'not __tach_command' -s x -l extra-display -x -a 'window process window,process' -d 'the progress in the window title, the process title'
complete -c tach -n 'not __tach_command' -s z -l decompress -d 'decompress the input'
complete -c tach -n 'not __tach_command' -l force -d 'draw even when not on a terminal: plain lines'
complete -c tach -n 'not __tach_command' -s F -l format -x -a json -d 'the line in pv tokens, or json'
complete -c tach -n 'not __tach_command' -l line-mode -d 'count lines'
complete -c tach -n 'not __tach_command' -l no-splice -d 'plain read and write only'
complete -c tach -n 'not __tach_command' -l no-flush -d 'a disk output: end without waiting for its last flush'
complete -c tach -n 'not __tach_command' -s M -l monitor -x -a 'in out both' -d 'which side of the command to meter'
complete -c tach -n 'not __tach_command' -l write-at -x -d 'with a buffer: start writing when it is this % full'
complete -c tach -n 'not __tach_command' -l read-at -x -d 'with a buffer: once full, read again at this % full'
complete -c tach -n 'not __tach_command' -l read-limit -x -d 'with a buffer: read at most this many bytes a second'
complete -c tach -n 'not __tach_command' -l buffer-file -r -F -d 'with a buffer: keep it in a new file, or in a directory'
complete -c tach -n 'not __tach_command' -l hash -x -a 'sha256 sha512 sha1 md5 blake2b' -d 'the stream\'s digests at the end; ALG:HEX fails unless it is HEX'
complete -c tach -n 'not __tach_command' -l output-block -x -d 'every write exactly this many bytes (a tape\'s block)'
complete -c tach -n 'not __tach_command' -l pad -d 'with --output-block: zeros fill the last block'
complete -c tach -n 'not __tach_command' -l stall-timeout -x -d 'fail when nothing moves for this many seconds'
complete -c tach -n 'not __tach_command' -l log -r -F -d 'a CSV line each interval in this file'
complete -c tach -n 'not __tach_command' -l stats -d 'rate statistics and waits at the end'
complete -c tach -n 'not __tach_command' -l wait-for -d 'with -d NAME: watch for new ones until ^C'
complete -c tach -n 'not __tach_command' -l once -d 'with -d: show where each file is, once, and exit'
complete -c tach -n 'not __tach_command' -l reading -d 'with -d: only files open for reading'
complete -c tach -n 'not __tach_command' -l writing -d 'with -d: only files open for writing'
complete -c tach -n 'not __tach_command' -l pipeline -d 'with -d PID: every stage of its pipeline, the slow one named'
complete -c tach -n 'not __tach_command' -l help -d 'show help'
complete -c tach -n 'not __tach_command' -l version -d 'show the version'
complete -c tach -n 'not __tach_command' -a '(__fish_complete_command)'
complete -c tach -n __tach_command -x -a '(__fish_complete_subcommand --commandline (__tach_command) (commandline -ct))'
