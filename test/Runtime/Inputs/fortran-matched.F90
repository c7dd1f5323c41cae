! test/Runtime/Inputs/fortran-matched.F90 - Matched and persistent receives in Fortran
!
! A Fortran MPI program (`use mpi`) for rt-fortran-matched.test: rank 0
! sends a vector of doubles to rank 1 twice; rank 1 receives it with
! MPI_Mprobe and MPI_Mrecv, then with MPI_Improbe and MPI_Imrecv. It checks
! every element it receives, gaps included, and the status counts, and
! prints one line per check ("RANK OPERATION ok ROUND"); a wrong value ends
! it with exit status 1.
program fortran_matched
  use mpi
  implicit none
  integer, parameter :: n = 6, stride = 3, len = n * stride
  integer :: rank, ierr, vec, msg, req, k
  integer :: status(MPI_STATUS_SIZE)
  logical :: found
  double precision :: a(len)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Type_vector(n, 1, stride, MPI_DOUBLE_PRECISION, vec, ierr)
  call MPI_Type_set_name(vec, 'vec', ierr)
  call MPI_Type_commit(vec, ierr)

  if (rank == 0) then
    do k = 1, 2
      call fill(a, k)
      call MPI_Send(a, 1, vec, 1, k, MPI_COMM_WORLD, ierr)
    end do
  else if (rank == 1) then
    a = -1d0
    call MPI_Mprobe(0, 1, MPI_COMM_WORLD, msg, status, ierr)
    call MPI_Mrecv(a, 1, vec, msg, status, ierr)
    call check(a, 1, status, 'mrecv')
    a = -1d0
    found = .false.
    do while (.not. found)
      call MPI_Improbe(0, 2, MPI_COMM_WORLD, found, msg, status, ierr)
    end do
    call MPI_Imrecv(a, 1, vec, msg, req, ierr)
    call MPI_Wait(req, status, ierr)
    call check(a, 2, status, 'imrecv')
  end if
  call MPI_Type_free(vec, ierr)
  call MPI_Finalize(ierr)

contains

  ! Element i of round k: every stride-th holds data, the rest gaps.
  subroutine fill(x, k)
    double precision, intent(out) :: x(len)
    integer, intent(in) :: k
    integer :: j
    do j = 1, len
      x(j) = 1000d0 * k + j
    end do
  end subroutine

  subroutine check(x, k, st, op)
    double precision, intent(in) :: x(len)
    integer, intent(in) :: k, st(MPI_STATUS_SIZE)
    character(*), intent(in) :: op
    integer :: j, c, e
    do j = 1, len
      if (mod(j - 1, stride) == 0) then
        if (x(j) /= 1000d0 * k + j) then
          print '(A, A, I0, A, F10.1)', op, ': element ', j, ' is ', x(j)
          call MPI_Abort(MPI_COMM_WORLD, 1, e)
          stop 1
        end if
      else if (x(j) /= -1d0) then
        print '(A, A, I0)', op, ': gap written at ', j
        call MPI_Abort(MPI_COMM_WORLD, 1, e)
        stop 1
      end if
    end do
    call MPI_Get_count(st, vec, c, e)
    if (c /= 1) then
      print '(A, A, I0)', op, ': MPI_Get_count ', c
      call MPI_Abort(MPI_COMM_WORLD, 1, e)
      stop 1
    end if
    print '(I0, 1X, A, 1X, A, I0)', rank, op, 'ok ', k
  end subroutine
end program
