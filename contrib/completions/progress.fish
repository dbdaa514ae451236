# fish completion for progress(1) as tach provides it
complete -c progress -s b -x -d 'buffer size'
complete -c progress -s e -d 'display on stderr'
complete -c progress -s f -r -F -d 'read this file'
complete -c progress -s l -x -d 'expected length'
complete -c progress -s p -x -d 'text before the bar'
complete -c progress -s z -d 'decompress the input'
complete -c progress -n '__fish_is_first_arg' -a '(__fish_complete_command)'
