! test/Runtime/Inputs/fortran-exchange.F90 - A Fortran MPI program to trace
!
! An ordinary Fortran MPI program, which knows nothing of ddtc, for the
! tests of the preload libraries on Fortran programs (trace-fortran.test,
! rt-fortran.test). Built with one of the three bindings of MPI: mpif.h
! (the default; with gfortran 10 and later -fallow-argument-mismatch, as
! mpif.h declares no interfaces), `use mpi` (-DBINDING_MPI) or `use mpi_f08`
! (-DBINDING_F08).
!
! It builds a vector, an indexed, a struct and a subarray type (named with
! MPI_Type_set_name; with mpif.h and `use mpi`, an MPI_Type_hvector of
! MPI-1 too, which it only describes) and a struct of absolute addresses,
! and exchanges them
! between two ranks: MPI_Send/MPI_Recv, MPI_Sendrecv, MPI_Irecv/MPI_Isend
! completed by MPI_Waitall, MPI_Waitany and MPI_Test, MPI_Bcast,
! MPI_Allgather (also with MPI_IN_PLACE), MPI_Pack/MPI_Unpack, and the
! struct of addresses with MPI_BOTTOM. It checks every element of what it
! receives, gaps included, and the statuses, and exits non-zero on a wrong
! value. One line per check on stdout ("RANK OPERATION TYPE ok"), and the
! error class of an MPI_Send with an invalid datatype handle. The
! constructor calls marked SOURCE are where the trace's x-source must point
! (trace-source.py).
!
! Usage: fortran-exchange PREFIX
! writes PREFIX.RANK.types: one line per named type, what MPI says of it, in
! the format of trace-check props (size, bounds, true bounds and the hash of
! the bytes MPI_Pack writes for 2 instances from a patterned buffer).

! mpif.h comes after IMPLICIT NONE, a module before it.
#if defined(BINDING_F08)
#define MPI_MODULE use mpi_f08
#define MPI_HEADER
#define DATATYPE type(MPI_Datatype)
#define REQUEST type(MPI_Request)
#define DECLARE_STATUS(X) type(MPI_Status) :: X
#define DECLARE_STATUSES(X, N) type(MPI_Status) :: X(N)
#define SOURCE_OF(S) S%MPI_SOURCE
#define TAG_OF(S) S%MPI_TAG
#define SOURCE_AT(S, I) S(I)%MPI_SOURCE
#define SET_HANDLE(H, V) H%MPI_VAL = V
! MPICH 4.0.2's mpi_f08 gives MPI_Waitany's index from 0
! (pmodels/mpich#6270): it is checked to be 1 or 2 elsewhere only.
#define INDEX_OK(W) (W >= 0 .and. W <= 2)
#elif defined(BINDING_MPI)
#define MPI_MODULE use mpi
#define MPI_HEADER
#else
#define MPI_MODULE
#define MPI_HEADER include 'mpif.h'
#endif
#if !defined(BINDING_F08)
#define DATATYPE integer
#define REQUEST integer
#define DECLARE_STATUS(X) integer :: X(MPI_STATUS_SIZE)
#define DECLARE_STATUSES(X, N) integer :: X(MPI_STATUS_SIZE, N)
#define SOURCE_OF(S) S(MPI_SOURCE)
#define TAG_OF(S) S(MPI_TAG)
#define SOURCE_AT(S, I) S(MPI_SOURCE, I)
#define SET_HANDLE(H, V) H = V
#define INDEX_OK(W) (W == 1 .or. W == 2)
#endif

program fortran_exchange
  MPI_MODULE
  implicit none
  MPI_HEADER

  ! One instance of each type spans: vec 17 doubles, idx 12 reals, sub a
  ! 6 x 8 integer array, rec one element of recs.
  integer, parameter :: NV = 17, NI = 12, NS = 48
  type :: pair
    sequence
    integer :: i(2)
    double precision :: d
  end type pair

  DATATYPE :: vec, idx, rec, sub, absolute, bad, oldhv
  logical :: vmask(NV), imask(NI), smask(NS)
  double precision :: vsend(NV), vrecv(NV), vall(2 * NV)
  real :: isend(NI), irecv(NI), iall(2 * NI)
  integer :: ssend(NS), srecv(NS), sall(2 * NS)
  type(pair) :: rsend(2), rrecv(2), rall(2)
  integer, volatile :: absi(3)
  double precision, volatile :: absd(2)
  character, allocatable :: packed(:)
  REQUEST :: reqs(2)
  DECLARE_STATUS(st)
  DECLARE_STATUSES(sts, 2)
  integer :: ierr, rank, nranks, other, errors, i, which, psize, pos
  integer :: eclass, err
  integer(kind=MPI_ADDRESS_KIND) :: disps(2), base
  logical :: flag
  character(len=256) :: prefix, path

  errors = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  if (nranks /= 2) then
    print '(A)', 'fortran-exchange: runs on 2 ranks'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  other = 1 - rank
  call get_command_argument(1, prefix)

  ! The types, and which elements of an instance's span they hold.
  call MPI_Type_vector(4, 2, 5, MPI_DOUBLE_PRECISION, vec, ierr) ! SOURCE: vec
  vmask = .false.
  do i = 0, 3
    vmask(1 + 5 * i : 2 + 5 * i) = .true.
  end do
  call MPI_Type_indexed(3, [1, 2, 3], [0, 4, 9], MPI_REAL, idx, ierr) ! SOURCE: idx
  imask = .false.
  imask([1, 5, 6, 10, 11, 12]) = .true.
  call MPI_Get_address(rsend(1)%i, base, ierr)
  call MPI_Get_address(rsend(1)%d, disps(2), ierr)
  disps = [0_MPI_ADDRESS_KIND, disps(2) - base]
  call MPI_Type_create_struct(2, [2, 1], disps, &
                              [MPI_INTEGER, MPI_DOUBLE_PRECISION], rec, ierr)
  call MPI_Type_create_subarray(2, [6, 8], [3, 4], [1, 2], MPI_ORDER_FORTRAN, &
                                MPI_INTEGER, sub, ierr)
  smask = .false.
  do i = 3, 6
    smask(2 + 6 * (i - 1) : 4 + 6 * (i - 1)) = .true.
  end do
  call MPI_Get_address(absi, disps(1), ierr)
  call MPI_Get_address(absd, disps(2), ierr)
  call MPI_Type_create_struct(2, [3, 2], disps, &
                              [MPI_INTEGER, MPI_DOUBLE_PRECISION], absolute, ierr)
#if !defined(BINDING_F08)
  ! MPI-1's MPI_Type_hvector, removed in MPI-3: mpif.h and `use mpi` keep it.
  call MPI_Type_hvector(2, 1, 12, MPI_INTEGER, oldhv, ierr)
  call MPI_Type_set_name(oldhv, 'old_hvector', ierr)
  call MPI_Type_commit(oldhv, ierr)
#endif
  call MPI_Type_set_name(vec, 'vec', ierr)
  call MPI_Type_set_name(idx, 'idx', ierr)
  call MPI_Type_set_name(rec, 'rec', ierr)
  call MPI_Type_set_name(sub, 'sub', ierr)
  call MPI_Type_set_name(absolute, 'absolute', ierr)
  call MPI_Type_commit(vec, ierr)
  call MPI_Type_commit(idx, ierr)
  call MPI_Type_commit(rec, ierr)
  call MPI_Type_commit(sub, ierr)
  call MPI_Type_commit(absolute, ierr)

  write (path, '(A,A,I0,A)') trim(prefix), '.', rank, '.types'
  open (unit=10, file=path, status='replace', action='write')
  call describe('vec', vec)
  call describe('idx', idx)
  call describe('rec', rec)
  call describe('sub', sub)
#if !defined(BINDING_F08)
  call describe('old_hvector', oldhv)
#endif
  close (10)

  ! Blocking: rank 0 sends first; the receive's status is checked.
  call fill_all(rank)
  do i = 0, 1
    if (rank == i) then
      call MPI_Send(vsend, 1, vec, other, 1, MPI_COMM_WORLD, ierr)
      call MPI_Send(isend, 1, idx, other, 2, MPI_COMM_WORLD, ierr)
      call MPI_Send(rsend, 2, rec, other, 3, MPI_COMM_WORLD, ierr)
      call MPI_Ssend(ssend, 1, sub, other, 4, MPI_COMM_WORLD, ierr)
    else
      call clear_all()
      call MPI_Recv(vrecv, 1, vec, other, 1, MPI_COMM_WORLD, st, ierr)
      call check_status('vec', 1)
      call MPI_Recv(irecv, 1, idx, other, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_Recv(rrecv, 2, rec, other, 3, MPI_COMM_WORLD, st, ierr)
      call check_status('rec', 2)
      call MPI_Recv(srecv, 1, sub, other, 4, MPI_COMM_WORLD, st, ierr)
      call check_status('sub', 1)
      call check_all('send-recv', other)
    end if
  end do

  call clear_all()
  call MPI_Sendrecv(vsend, 1, vec, other, 5, vrecv, 1, vec, other, 5, &
                    MPI_COMM_WORLD, st, ierr)
  call MPI_Sendrecv(isend, 1, idx, other, 6, irecv, 1, idx, other, 6, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Sendrecv(rsend, 2, rec, other, 7, rrecv, 2, rec, other, 7, &
                    MPI_COMM_WORLD, st, ierr)
  call MPI_Sendrecv(ssend, 1, sub, other, 8, srecv, 1, sub, other, 8, &
                    MPI_COMM_WORLD, st, ierr)
  call check_all('sendrecv', other)

  ! Non-blocking, completed each way MPI has.
  call clear_all()
  call MPI_Irecv(vrecv, 1, vec, other, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(vsend, 1, vec, other, 9, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, sts, ierr)
  if (SOURCE_AT(sts, 1) /= other) call fail('waitall status', SOURCE_AT(sts, 1), other)
  call MPI_Irecv(irecv, 1, idx, other, 10, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(isend, 1, idx, other, 10, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_Irecv(rrecv, 2, rec, other, 11, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Issend(rsend, 2, rec, other, 11, MPI_COMM_WORLD, reqs(2), ierr)
  do i = 1, 2
    flag = reqs(1) == MPI_REQUEST_NULL
    call MPI_Waitany(2, reqs, which, st, ierr)
    if (.not. flag .and. reqs(1) == MPI_REQUEST_NULL) call check_status('rec', 2)
    if (.not. INDEX_OK(which)) call fail('waitany index', which, 1)
  end do
  if (any(reqs /= MPI_REQUEST_NULL)) call fail('waitany requests', 1, 0)
  call MPI_Irecv(srecv, 1, sub, other, 12, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(ssend, 1, sub, other, 12, MPI_COMM_WORLD, reqs(2), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, st, ierr)
  end do
  call check_status('sub', 1)
  call MPI_Wait(reqs(2), MPI_STATUS_IGNORE, ierr)
  call check_all('isend-irecv', other)

  ! Collectives: rank 0's instance to everyone; every rank's to everyone.
  call clear_all()
  if (rank == 0) then
    vrecv = merge(vsend, -1d0, vmask)
    irecv = merge(isend, -1.0, imask)
    srecv = merge(ssend, -1, smask)
    rrecv = rsend
  end if
  call MPI_Bcast(vrecv, 1, vec, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(irecv, 1, idx, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(rrecv, 2, rec, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(srecv, 1, sub, 0, MPI_COMM_WORLD, ierr)
  call check_all('bcast', 0)

  call fill_all(rank)
  vall = -1
  iall = -1
  sall = -1
  call clear_pairs(rall)
  call MPI_Allgather(isend, 1, idx, iall, 1, idx, MPI_COMM_WORLD, ierr)
  call MPI_Allgather(rsend, 1, rec, rall, 1, rec, MPI_COMM_WORLD, ierr)
  call MPI_Allgather(ssend, 1, sub, sall, 1, sub, MPI_COMM_WORLD, ierr)
  ! In place: this rank's instance is already in the receive buffer.
  vall(rank * NV + 1 : rank * NV + NV) = vsend
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, vall, 1, vec, &
                     MPI_COMM_WORLD, ierr)
  do i = 0, 1
    call check_d('allgather', 'vec', vall(i * NV + 1 : i * NV + NV), vmask, i, &
                 i == rank)
    call check_r('allgather', 'idx', iall(i * NI + 1 : i * NI + NI), imask, i)
    call check_i('allgather', 'sub', sall(i * NS + 1 : i * NS + NS), smask, i)
    call check_pair('allgather', rall(i + 1), i, 1)
  end do

  ! Packing, and back.
  call MPI_Pack_size(1, sub, MPI_COMM_WORLD, psize, ierr)
  allocate (packed(psize))
  pos = 0
  call MPI_Pack(ssend, 1, sub, packed, psize, pos, MPI_COMM_WORLD, ierr)
  srecv = -1
  pos = 0
  call MPI_Unpack(packed, psize, pos, srecv, 1, sub, MPI_COMM_WORLD, ierr)
  call check_i('pack-unpack', 'sub', srecv, smask, rank)

  ! Absolute addresses, with MPI_BOTTOM.
  if (rank == 0) then
    absi = [7, 8, 9]
    absd = [1.5d0, 2.5d0]
    call MPI_Send(MPI_BOTTOM, 1, absolute, other, 13, MPI_COMM_WORLD, ierr)
  else
    absi = 0
    absd = 0
    call MPI_Recv(MPI_BOTTOM, 1, absolute, other, 13, MPI_COMM_WORLD, st, ierr)
    if (any(absi /= [7, 8, 9]) .or. any(absd /= [1.5d0, 2.5d0])) then
      call fail('bottom absolute', absi(1), 7)
    else
      print '(I0,A)', rank, ' bottom absolute ok'
    end if
  end if

  ! An invalid handle: MPI's own error.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  SET_HANDLE(bad, 123456)
  call MPI_Send(ssend, 1, bad, other, 14, MPI_COMM_WORLD, err)
  call MPI_Error_class(err, eclass, ierr)
  print '(I0,A,L1)', rank, ' invalid-type MPI_ERR_TYPE ', eclass == MPI_ERR_TYPE

  call MPI_Type_free(vec, ierr)
  call MPI_Type_free(idx, ierr)
  call MPI_Type_free(rec, ierr)
  call MPI_Type_free(sub, ierr)
  call MPI_Type_free(absolute, ierr)
  if (vec /= MPI_DATATYPE_NULL) call fail('free', 1, 0)
  call MPI_Finalize(ierr)
  if (errors > 0) error stop 1

contains

  ! Rank R's values: R * 1000 + the element's position in its span.
  subroutine fill_all(r)
    integer, intent(in) :: r
    integer :: k
    vsend = [(dble(r * 1000 + k), k = 1, NV)]
    isend = [(real(r * 1000 + k), k = 1, NI)]
    ssend = [(r * 1000 + k, k = 1, NS)]
    do k = 1, 2
      rsend(k)%i = [r * 1000 + 10 * k + 1, r * 1000 + 10 * k + 2]
      rsend(k)%d = r * 1000 + 10 * k + 0.5d0
    end do
  end subroutine fill_all

  subroutine clear_all()
    vrecv = -1
    irecv = -1
    srecv = -1
    call clear_pairs(rrecv)
  end subroutine clear_all

  subroutine clear_pairs(p)
    type(pair), intent(out) :: p(2)
    integer :: k
    do k = 1, 2
      p(k)%i = -1
      p(k)%d = -1
    end do
  end subroutine clear_pairs

  subroutine check_all(op, r)
    character(len=*), intent(in) :: op
    integer, intent(in) :: r
    integer :: k
    call check_d(op, 'vec', vrecv, vmask, r, .false.)
    call check_r(op, 'idx', irecv, imask, r)
    call check_i(op, 'sub', srecv, smask, r)
    do k = 1, 2
      call check_pair(op, rrecv(k), r, k)
    end do
  end subroutine check_all

  ! The elements of the type hold rank R's values, the others -1 (or,
  ! where Mine, this rank's own values, for MPI_IN_PLACE).
  subroutine check_d(op, name, got, mask, r, mine)
    character(len=*), intent(in) :: op, name
    double precision, intent(in) :: got(:)
    logical, intent(in) :: mask(:), mine
    integer, intent(in) :: r
    integer :: k, bad
    bad = 0
    do k = 1, size(got)
      if (mask(k) .or. mine) then
        if (got(k) /= dble(r * 1000 + k)) bad = k
      else if (got(k) /= -1) then
        bad = k
      end if
    end do
    call report(op, name, bad)
  end subroutine check_d

  subroutine check_r(op, name, got, mask, r)
    character(len=*), intent(in) :: op, name
    real, intent(in) :: got(:)
    logical, intent(in) :: mask(:)
    integer, intent(in) :: r
    integer :: k, bad
    bad = 0
    do k = 1, size(got)
      if (mask(k)) then
        if (got(k) /= real(r * 1000 + k)) bad = k
      else if (got(k) /= -1) then
        bad = k
      end if
    end do
    call report(op, name, bad)
  end subroutine check_r

  subroutine check_i(op, name, got, mask, r)
    character(len=*), intent(in) :: op, name
    integer, intent(in) :: got(:)
    logical, intent(in) :: mask(:)
    integer, intent(in) :: r
    integer :: k, bad
    bad = 0
    do k = 1, size(got)
      if (mask(k)) then
        if (got(k) /= r * 1000 + k) bad = k
      else if (got(k) /= -1) then
        bad = k
      end if
    end do
    call report(op, name, bad)
  end subroutine check_i

  subroutine check_pair(op, p, r, k)
    character(len=*), intent(in) :: op
    type(pair), intent(in) :: p
    integer, intent(in) :: r, k
    integer :: bad
    bad = 0
    if (any(p%i /= [r * 1000 + 10 * k + 1, r * 1000 + 10 * k + 2])) bad = k
    if (p%d /= r * 1000 + 10 * k + 0.5d0) bad = k
    call report(op, 'rec', bad)
  end subroutine check_pair

  subroutine report(op, name, bad)
    character(len=*), intent(in) :: op, name
    integer, intent(in) :: bad
    if (bad /= 0) then
      print '(I0,5A,I0)', rank, ' ', op, ' ', name, ': WRONG element ', bad
      errors = errors + 1
    else
      print '(I0,5A)', rank, ' ', op, ' ', name, ' ok'
    end if
  end subroutine report

  ! The status of a receive of Expected instances of the type Name from
  ! the other rank.
  subroutine check_status(name, expected)
    character(len=*), intent(in) :: name
    integer, intent(in) :: expected
    integer :: got
    DATATYPE :: t
    if (name == 'vec') t = vec
    if (name == 'rec') t = rec
    if (name == 'sub') t = sub
    call MPI_Get_count(st, t, got, ierr)
    if (SOURCE_OF(st) /= other .or. got /= expected) then
      call fail('status ' // name, got, expected)
    end if
  end subroutine check_status

  subroutine fail(what, got, expected)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got, expected
    print '(I0,3A,I0,A,I0)', rank, ' ', what, ': WRONG ', got, ', expected ', expected
    errors = errors + 1
  end subroutine fail

  ! What MPI says of T, as trace-check props prints it.
  subroutine describe(name, t)
    character(len=*), intent(in) :: name
    DATATYPE, intent(in) :: t
    integer :: tsize
    integer(kind=MPI_ADDRESS_KIND) :: lb, extent, tlb, textent
    call MPI_Type_size(t, tsize, ierr)
    call MPI_Type_get_extent(t, lb, extent, ierr)
    call MPI_Type_get_true_extent(t, tlb, textent, ierr)
    write (10, '(3A,I0,A,I0,A,I0,A,I0,A,I0,2A)') 'type ', name, ' size ', tsize, &
      ' lb ', lb, ' extent ', extent, ' true_lb ', tlb, ' true_extent ', textent, &
      ' pack ', pack_hash(t, tsize, extent, tlb, textent)
  end subroutine describe

  ! The FNV-1a hash of the bytes MPI_Pack writes for 2 instances of T from
  ! a buffer whose byte at offset I from the lowest byte the typemap
  ! touches is I*131+7, in hex: trace-check's packHash. (Built with
  ! -fwrapv: the hash multiplies modulo 2**64.)
  function pack_hash(t, tsize, extent, tlb, textent) result(hex)
    DATATYPE, intent(in) :: t
    integer, intent(in) :: tsize
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: extent, tlb, textent
    character(len=16) :: hex
    integer(kind=MPI_ADDRESS_KIND) :: lo, hi, k
    integer(kind=1), allocatable :: pattern(:), out(:)
    integer :: position, j, v
    integer(kind=8) :: h
    lo = tlb
    hi = tlb + textent + extent
    ! Element 0 is the buffer MPI_Pack is given: offset 0 of the type.
    allocate (pattern(min(lo, 0_MPI_ADDRESS_KIND) : max(hi, 0_MPI_ADDRESS_KIND)))
    pattern = 0
    do k = lo, hi
      v = int(mod((k - lo) * 131 + 7, 256_MPI_ADDRESS_KIND))
      if (v > 127) v = v - 256
      pattern(k) = int(v, 1)
    end do
    allocate (out(2 * tsize + 1))
    position = 0
    call MPI_Pack(pattern(0), 2, t, out, size(out), position, MPI_COMM_WORLD, ierr)
    h = 1469598103934665603_8
    do j = 1, position
      h = ieor(h, iand(int(out(j), 8), 255_8)) * 1099511628211_8
    end do
    write (hex, '(Z16.16)') h
    do j = 1, 16
      if (hex(j:j) >= 'A' .and. hex(j:j) <= 'F') &
        hex(j:j) = achar(iachar(hex(j:j)) + 32)
    end do
  end function pack_hash

end program fortran_exchange
